import { canonicalJsonWithoutNullFields, sha256Hex } from '../../src/pipeline/content-hash.js';

/**
 * A digest of an object or array field's whole content (canonical JSON: key order does not matter). Null
 * and absent are one value: a service that prints `null` for a key that was not sent holds the same
 * content. Ledgers keep these digests: test/jobs/reconcile/field-digest.test.ts pins them.
 */
export function fieldDigest(value: unknown): string {
  return sha256Hex(canonicalJsonWithoutNullFields(value)).slice(0, 32);
}
