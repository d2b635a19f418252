import type { EntityName } from '../../src/connector/entities.js';
import type { SourceRecord } from '../../src/connector/types.js';
import type { Metrics } from '../../src/observability/metrics.js';
import type { LedgerEntry } from '../../src/pipeline/ledger.js';
import type { Quarantine } from '../../src/pipeline/quarantine.js';

/** The quarantine reason of a document written to billing as issued that the ERP now holds as a draft. */
export const RETURNED_TO_DRAFT = 'RETURNED_TO_DRAFT';

/** A document billing holds as issued, read now at a later version as a draft: it went back to draft in the ERP. */
export function returnedToDraft(
  record: Pick<SourceRecord, 'version'>,
  written: LedgerEntry | undefined,
): written is LedgerEntry {
  return Boolean(written && !written.sourceDeletedAt && record.version > written.version);
}

export function returnedToDraftMessage(
  record: Pick<SourceRecord, 'status'>,
  written: Pick<LedgerEntry, 'number'>,
): string {
  return `back to draft in the ERP (status ${record.status ?? 'draft'}) after it was written to billing as issued${written.number ? ` (number ${written.number})` : ''}; billing still holds it: issue it again in the ERP, or void it in billing`;
}

/**
 * A document the ERP holds as a draft, on a connection that does not sync drafts (`syncDrafts: false`).
 * A draft is not a receivable: it is skipped and counted, never quarantined, and syncs once issued (its
 * modification time changes then). The exception is a document billing already holds as issued, read
 * now at a later version as a draft: it went back to draft in the ERP. No upsert can un-issue it in
 * billing, so it is quarantined for a person (issue it again in the ERP, or void it in billing); the
 * next version written clears the entry.
 */
export async function setDraftAside(
  rt: { quarantine: Pick<Quarantine, 'put'>; metrics: Metrics },
  conn: string,
  entity: EntityName,
  record: SourceRecord,
  written: LedgerEntry | undefined,
): Promise<'skipped' | 'quarantined'> {
  if (returnedToDraft(record, written)) {
    await rt.quarantine.put({
      connection: conn,
      entity,
      erpId: record.id,
      version: record.version,
      reason: RETURNED_TO_DRAFT,
      message: returnedToDraftMessage(record, written),
      stage: 'map',
      at: Date.now(),
    });
    rt.metrics.recordsQuarantined.inc({ connection: conn, entity, reason: RETURNED_TO_DRAFT });
    return 'quarantined';
  }
  rt.metrics.recordsSkipped.inc({ connection: conn, entity, reason: 'draft' });
  return 'skipped';
}
