import type { Logger } from 'pino';
import type { RecordBegun } from '../../src/pipeline/upsert-state.js';
import { holdForReview } from './hold-for-review.js';
import { JobSettlements } from './job-settlements.js';
import { checkedBody } from './checked-body.js';
import { ensureCustomer } from './ensure-customer.js';
import { failUpsert } from './fail-upsert.js';
import { takeBillingSlot } from './take-billing-slot.js';
import type { PreparedRecord, RecordControl, UpsertHelpers, UpsertOutcome, UpsertRun } from './types.js';
import { writeByEntity, writtenEntry } from './write-by-entity.js';

/**
 * The upsert of one record, whatever job carries it, after its job's BEGIN (`begun`). Returns its
 * outcome; throws for a record set aside (through `control`), quarantined (a non-retryable SyncError,
 * after the quarantine entry is written) or failed in a way a retry may mend. A record whose lock the job
 * holds is settled in `settlements` whatever happens (the job tells Redis, see jobs/upsert/job-settlements.ts).
 *
 * The steps: admit (the record's lock) → skip what billing already holds → hold for review → take a billing slot → ensure
 * the customer → write by entity → settle; a failure is classified (classifyUpsertFailure) and acted on.
 */
export async function upsertRecord(
  rt: UpsertHelpers,
  control: RecordControl,
  record: PreparedRecord,
  begun: RecordBegun,
  settlements: Pick<JobSettlements, 'add'>,
  { signal, log }: { signal?: AbortSignal; log: Logger },
): Promise<{ outcome: UpsertOutcome }> {
  const run = upsertRun(rt, control, record, begun, { signal, log });
  const { connectionId: conn, entity, erpId } = record.data;
  if (!begun.locked) {
    // Another version of this record is being written: come back shortly, without using an attempt.
    return await control.setAside({ reason: 'record-locked', at: Date.now() + 200, jitterMs: 300 });
  }
  let settled = false;
  const settle: JobSettlements['add'] = (id, settlement, now) => {
    settlements.add(id, settlement, now);
    settled = true;
  };
  try {
    const skipped = alreadyInBilling(run);
    if (skipped) {
      rt.metrics.recordsSkipped.inc({ connection: conn, entity, reason: skipped });
      settle(erpId, skipped === 'stale' ? { outcome: 'stale' } : { outcome: 'unchanged', version: run.data.version });
      return { outcome: skipped };
    }
    const body = checkedBody(record);
    // Review before write: a held record is settled here, not written (src/pipeline/review-queue.ts).
    const hold = await holdForReview(rt.review, run.data, body, begun, record.buyer?.buyerId);
    if (hold) {
      const { rule, result } = hold;
      const again = result === 'kept' || result === 'rejected';
      settle(
        erpId,
        result === 'newer' ? { outcome: 'stale' } : { outcome: 'held', version: run.data.version, rule, again },
      );
      return { outcome: result === 'newer' ? 'stale' : 'held' };
    }
    await takeBillingSlot(run);
    if (record.buyer && !begun.customerEnsured)
      await ensureCustomer({ billing: run.billing, customersEnsured: rt.customersEnsured }, conn, record.buyer, signal);
    const written = await writeByEntity(run, body);
    // Settled with the job's other records (jobs/upsert/job-settlements.ts): ledger write (never over a newer
    // version), quarantine cleared, in-flight settled, lock released. At once after an attachment.
    settle(erpId, { outcome: 'written', entry: writtenEntry(run, written) }, run.needsAttachment);
    rt.breaker.succeeded();
    // An approved version is in billing: a copy of it held meanwhile (a pull's, before this write) goes.
    if (run.data.approvedBy) await rt.review?.queue.clear(conn, entity, erpId, run.data.version);
    rt.metrics.recordsUpserted.inc({ connection: conn, entity });
    return { outcome: 'written' };
  } catch (err) {
    return await failUpsert(run, err);
  } finally {
    if (!settled) settlements.add(erpId, { outcome: 'released' });
  }
}

/** Every call of this job goes to the connection's billing company, with its keys. */
function upsertRun(
  rt: UpsertHelpers,
  control: RecordControl,
  { data }: PreparedRecord,
  begun: RecordBegun,
  { signal, log }: { signal?: AbortSignal; log: Logger },
): UpsertRun {
  const { client: billing, canAttach, keyId } = rt.billingFor(data.connectionId);
  const current = begun.current;
  const needsAttachment = canAttach && Boolean(data.documentUrl) && current?.attachmentUrl !== data.documentUrl;
  return { rt, control, data, current, billing, keyId, needsAttachment, signal, log };
}

/** `stale`: the ledger holds a newer version; `unchanged`: it holds this content (and its link, if one is due). */
function alreadyInBilling({ current, data, needsAttachment }: UpsertRun): 'stale' | 'unchanged' | undefined {
  if (current && current.version > data.version) return 'stale';
  if (current && current.hash === data.hash && !needsAttachment) return 'unchanged';
  return undefined;
}
