import type { ZodError } from 'zod';
import { formatZodIssues } from '../errors/index.js';
import { mapFail, type MapFailure, type MapResult } from './quarantine-reason.js';

/**
 * Straight-line mapper code over MapResult steps: `take(result)` unwraps a success (collecting its
 * warnings) or aborts with the failure; `mapping(...)` turns the abort back into the MapFailure it
 * carries. Nothing escapes: mappers still never throw for bad vendor data, and programming errors
 * (anything that is not an abort) still propagate.
 */
class MapAbort extends Error {
  constructor(readonly failure: MapFailure) {
    super(failure.message);
  }
}

export class Steps {
  readonly warnings: string[] = [];

  take<T>(result: MapResult<T>): T {
    if (!result.ok) throw new MapAbort(result);
    if (result.warnings) this.warnings.push(...result.warnings);
    return result.value;
  }

  /** As take, without keeping the warnings (when the same step runs again at a level that keeps them). */
  takeQuietly<T>(result: MapResult<T>): T {
    if (!result.ok) throw new MapAbort(result);
    return result.value;
  }

  /** Aborts on a failed check (the mapping core's checks return a MapFailure or undefined). */
  check(failure: MapFailure | undefined): void {
    if (failure) throw new MapAbort(failure);
  }

  fail(failure: MapFailure): never {
    throw new MapAbort(failure);
  }

  warn(message: string): void {
    this.warnings.push(message);
  }
}

export function mapping<T>(body: (steps: Steps) => MapResult<T>): MapResult<T> {
  const steps = new Steps();
  try {
    return body(steps);
  } catch (e) {
    if (e instanceof MapAbort) return e.failure;
    throw e;
  }
}

/**
 * The raw record through its vendor record schema; a mismatch is INVALID_FIELD naming the paths, never
 * the values (records carry personal and financial data). `label` prefixes the paths ("invoice"),
 * `vendor` names the source in the message ("Zoho").
 */
export function parseRecord<T>(
  s: Steps,
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: ZodError } },
  raw: unknown,
  label: string,
  vendor: string,
): T {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = formatZodIssues(parsed.error, label);
  return s.fail(
    mapFail('INVALID_FIELD', `${vendor} ${label} is malformed: ${issues.slice(0, 5).join('; ')}`, {
      issues,
      field: issues[0]?.split(':')[0],
    }),
  );
}
