import type { SourceRecord } from '../../../src/connector/types.js';
import { DataContractError } from '../../../src/errors/index.js';
import { parseTimestamp } from '../../../src/mapping/index.js';

/**
 * A listed Xero record → SourceRecord. `version` = UpdatedDateUTC (`/Date(ms+0000)/`) as UTC ISO with ms.
 * Xero never removes documents (reference §3.6): a DELETED one is a SourceRecord with `deleted: true`
 * and status 'DELETED'; VOIDED keeps `deleted` unset — a void is a status, never a delete.
 * A record without a readable UpdatedDateUTC cannot be placed on the cursor, so the page fails loudly.
 */
export function toSourceRecord<Raw extends { UpdatedDateUTC: string }>(
  raw: Raw,
  id: string,
  status: string | null | undefined,
  endpoint: string,
): SourceRecord<Raw> {
  const version = parseTimestamp(raw.UpdatedDateUTC, { field: 'UpdatedDateUTC' });
  if (!version.ok)
    throw new DataContractError(`xero ${endpoint}: record ${id} has no usable UpdatedDateUTC (${version.message})`, { source: 'xero', operation: endpoint });
  const record: SourceRecord<Raw> = { id, version: version.value, raw };
  if (status) record.status = status;
  if (status === 'DELETED') record.deleted = true;
  return record;
}
