/**
 * Why a record was quarantined instead of synced, and the result type every mapper returns.
 *
 * Mappers never throw for bad vendor data: one broken record must not stop its page (docs/architecture.md, "The path of one record"), so
 * a mapper returns a `MapResult` and the pull job sends failures to quarantine with their reason code.
 * Thrown errors are left for programming faults.
 */

export const QUARANTINE_REASON_CODES = [
  /** Lines, tax, discounts, payments and total do not add up within the currency's rounding. */
  'AMOUNTS_INCONSISTENT',
  /** A foreign-currency record whose exchange rate is missing, zero, negative or unparsable. */
  'FX_UNDERIVABLE',
  /** A foreign-currency record whose exchange rate is exactly 1, or disagrees with the vendor's base totals. */
  'FX_SUSPECT',
  /** A field the billing model needs is absent. */
  'MISSING_FIELD',
  /** A field is present but malformed (garbage number, bad date, unknown state code...). */
  'INVALID_FIELD',
  /** A record shape we deliberately do not map (e.g. a bill, a pre-GST invoice). */
  'UNSUPPORTED',
  /** The mapped output failed the billing zod schema. */
  'SCHEMA_INVALID',
] as const;

export type QuarantineReasonCode = (typeof QUARANTINE_REASON_CODES)[number];

export interface MapSuccess<T> {
  ok: true;
  value: T;
  /** Things a person may want to know that do not block the sync (e.g. "mixed CGST rates"). */
  warnings?: string[];
}

export interface MapFailure {
  ok: false;
  reason: QuarantineReasonCode;
  /** Human-readable; names fields and figures, never whole payloads (they hold personal data). */
  message: string;
  /** The vendor or billing field at fault, dotted path, when there is one. */
  field?: string;
  /** For SCHEMA_INVALID: every zod issue as "path: message". */
  issues?: string[];
}

export type MapResult<T> = MapSuccess<T> | MapFailure;

export function mapOk<T>(value: T, warnings?: readonly string[]): MapSuccess<T> {
  return warnings && warnings.length > 0 ? { ok: true, value, warnings: [...warnings] } : { ok: true, value };
}

export function mapFail(
  reason: QuarantineReasonCode,
  message: string,
  details: { field?: string; issues?: string[] } = {},
): MapFailure {
  const failure: MapFailure = { ok: false, reason, message };
  if (details.field !== undefined) failure.field = details.field;
  if (details.issues !== undefined) failure.issues = details.issues;
  return failure;
}

export function isQuarantineReasonCode(value: unknown): value is QuarantineReasonCode {
  return typeof value === 'string' && (QUARANTINE_REASON_CODES as readonly string[]).includes(value);
}

/** Warnings of several successful steps, merged in order, for the final `mapOk`. */
export function collectWarnings(...results: ReadonlyArray<{ warnings?: readonly string[] } | undefined>): string[] {
  return results.flatMap((r) => r?.warnings ?? []);
}
