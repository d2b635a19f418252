import type { Runtime } from '../jobs/runtime.js';
import { ENTITY_NAMES, type EntityName } from '../src/connector/entities.js';
import { printedHistoryEntry } from './list-history.js';

/**
 * One ERP record's path, per entity it is known as: source version → job → billing ids → quarantine →
 * last reconciliation verdict → held for review (or rejected) → every outcome on record (`erp-sync explain`, `GET /api/v1/records/…`). Empty: never seen.
 */
export async function explainRecord(
  rt: Pick<Runtime, 'connection' | 'ledger' | 'quarantine' | 'reconcileState' | 'queues' | 'recordHistory'> & {
    /** Absent: review before write is not shown. */
    review?: Runtime['review'];
  },
  connection: string,
  erpId: string,
  entities: readonly EntityName[] = ENTITY_NAMES,
) {
  rt.connection(connection);
  const out = [];
  for (const entity of entities) {
    const ledger = await rt.ledger.get(connection, entity, erpId);
    const quarantine = await rt.quarantine.get(connection, entity, erpId);
    const verdict = await rt.reconcileState.verdict(connection, entity, erpId);
    const history = await rt.recordHistory.list(connection, entity, erpId);
    const review = await rt.review?.get(connection, entity, erpId);
    if (!ledger && !quarantine && !verdict && !history.length && !review) continue;
    let job: { id: string; state: string; attemptsMade: number; failedReason?: string } | undefined;
    if (ledger?.jobId) {
      const j = await rt.queues.upsert.getJob(ledger.jobId);
      if (j)
        job = {
          id: j.id!,
          state: await j.getState(),
          attemptsMade: j.attemptsMade,
          failedReason: j.failedReason || undefined,
        };
    }
    out.push({
      entity,
      source: ledger
        ? { version: ledger.version, status: ledger.sourceStatus ?? null, deletedAt: ledger.sourceDeletedAt ?? null }
        : null,
      job:
        job ??
        (ledger?.jobId
          ? {
              id: ledger.jobId,
              state: 'removed (completed; completed upsert jobs are kept for the last 1,000 records only)',
            }
          : null),
      billing: ledger
        ? {
            id: ledger.billingId,
            number: ledger.number ?? null,
            writtenAt: new Date(ledger.writtenAt).toISOString(),
            contentHash: ledger.hash,
            attachmentUrl: ledger.attachmentUrl ?? null,
          }
        : null,
      quarantine: quarantine
        ? {
            reason: quarantine.reason,
            stage: quarantine.stage,
            version: quarantine.version,
            message: quarantine.message,
          }
        : null,
      reconciliation: verdict ?? null,
      review: review
        ? {
            state: review.state,
            rule: review.rule,
            version: review.version,
            since: new Date(review.since).toISOString(),
            ...(review.state === 'rejected' ? { by: review.by ?? null, note: review.note ?? null } : {}),
          }
        : null,
      history: history.map(printedHistoryEntry),
    });
  }
  return out;
}

export type RecordLineage = Awaited<ReturnType<typeof explainRecord>>[number];
