import { contentHash } from '../../src/pipeline/content-hash.js';

/** Null and absent are one value: a service that prints `null` for a key that was not sent holds the same content. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

/** A digest of an object or array field's whole content (canonical JSON: key order does not matter). */
export function fieldDigest(value: unknown): string {
  return contentHash(withoutNulls(value)).slice(0, 32);
}
