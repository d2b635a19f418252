import type { FlatObject } from '../billing/schemas/primitives.js';

export interface SourceMetaFields {
  /** The connector's name: 'quickbooks', 'xero', 'zoho-books'. */
  system: string;
  /** The record's status as the vendor reports it (a void is a status here, never a delete). */
  status: string;
  /** The record's version (its updated-at instant): what reconciliation compares. */
  version: string;
  /** Vendor-specific fields, sent in the order given; an undefined value is left out (null is sent). */
  [field: string]: string | number | boolean | null | undefined;
}

/**
 * The metaData every mapped body carries: sourceSystem, sourceStatus, sourceVersion first, then the
 * vendor's own fields in the order the mapper lists them (the bytes sent stay stable, and content hashes
 * canonicalise key order anyway).
 */
export function sourceMeta({ system, status, version, ...fields }: SourceMetaFields): FlatObject {
  const meta: FlatObject = { sourceSystem: system, sourceStatus: status, sourceVersion: version };
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) meta[key] = value;
  return meta;
}
