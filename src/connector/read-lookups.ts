import type { z } from 'zod';
import { mapFail, mapOk, type MapResult, Steps } from '../mapping/index.js';

/** Results by schema, then by lookups object: a read's lookups are one object, checked once. */
const checked = new WeakMap<z.ZodType, WeakMap<object, MapResult<unknown>>>();

/**
 * MapContext.lookups checked against a connector's lookups schema, the same way for every connector: a
 * missing or malformed lookups object quarantines the record as MISSING_FIELD (field `lookups`) with the
 * reason, never a silent empty default under which the mapper would guess (a tax rate of nothing, an
 * unknown base currency). `what` names what the lookups hold, for the message.
 */
export function lookupsResult<T>(schema: z.ZodType<T>, raw: unknown, vendor: string, what: string): MapResult<T> {
  if (typeof raw !== 'object' || raw === null) {
    return mapFail('MISSING_FIELD', `${vendor} lookups (${what}) are missing from the map context`, {
      field: 'lookups',
    });
  }
  let bySchema = checked.get(schema);
  if (!bySchema) checked.set(schema, (bySchema = new WeakMap()));
  const cached = bySchema.get(raw) as MapResult<T> | undefined;
  if (cached) return cached;
  const parsed = schema.safeParse(raw);
  const result: MapResult<T> = parsed.success
    ? mapOk(parsed.data)
    : mapFail(
        'MISSING_FIELD',
        `${vendor} lookups are malformed: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`,
        { field: 'lookups' },
      );
  bySchema.set(raw, result);
  return result;
}

/**
 * As lookupsResult, for a mapper body run by `mapping()` (src/mapping/steps.ts): the lookups, or the
 * mapping aborts with the MISSING_FIELD failure, which `mapping()` returns as the record's quarantine.
 */
export function requireLookups<T>(schema: z.ZodType<T>, raw: unknown, vendor: string, what: string): T {
  return new Steps().takeQuietly(lookupsResult(schema, raw, vendor, what));
}
