/**
 * Xero's date forms on the wire (JSON dates are Microsoft's `/Date(ms+0000)/`, not ISO-8601):
 * - `/Date(1739145600000+0000)/`: UTC epoch ms with a zone suffix (record fields);
 * - `/Date(1552326816230)/`: no suffix (the envelope's `DateTimeUTC`);
 * - `DateString` `2025-02-10T00:00:00`: no zone; calendar dates are UTC midnight.
 */
const MS_DATE = /^\/Date\((-?\d+)([+-]\d{4})?\)\/$/;

export function msDate(ms: number, withOffset = true): string {
  return withOffset ? `/Date(${ms}+0000)/` : `/Date(${ms})/`;
}

/** `2025-02-10T00:00:00` (no zone, no ms), as Xero writes DateString. */
export function dateString(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** Epoch ms of a `/Date(...)/` value, undefined for anything else. */
export function parseMsDate(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = MS_DATE.exec(value);
  return m ? Number(m[1]) : undefined;
}

/** UTC midnight of a `YYYY-MM-DD` day. */
export function dayMs(day: string): number {
  const ms = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(ms)) throw new Error(`not a day: ${day}`);
  return ms;
}

/** The UTC calendar day of an instant. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
