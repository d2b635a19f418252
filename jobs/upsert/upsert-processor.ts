import { RateLimitError } from 'bullmq';
import { defer } from '../admission/defer.js';
import { QUEUES, UpsertJobData } from '../catalog.js';
import { defineJob } from '../define-job.js';
import { withChangeToBilling } from './change-to-billing.js';
import { JobSettlements } from './job-settlements.js';
import { settlingWithHistory } from './upsert-history.js';
import { prepareRecord } from './prepare-record.js';
import { RECORD_LOCK_TTL_MS, recordLocksLease } from './record-locks-lease.js';
import type { RecordControl, UpsertHelpers, UpsertOutcome } from './types.js';
import { upsertRecord } from './upsert-record.js';

/**
 * One record to billing. Idempotent: the billing upsert key is deterministic (invoiceId from the
 * connection and ERP id), the ledger refuses older versions, and a per-record lock keeps two versions
 * of one record from racing to billing.
 */
export function upsertProcessor(rt: UpsertHelpers) {
  return defineJob(
    QUEUES.upsert,
    UpsertJobData,
    rt,
    async ({ job, data, token, signal, log, leases }): Promise<{ outcome: UpsertOutcome }> => {
      const control: RecordControl = {
        jobId: job.id!,
        attemptsMade: job.attemptsMade,
        setAside: (d, updated) => defer(job, token, { ...d, data: updated }),
        async keep(updated) {
          await job.updateData(updated);
        },
        async paused() {
          // The job goes back to wait without consuming an attempt.
          throw new RateLimitError();
        },
      };
      const record = prepareRecord(data);
      const settlements = new JobSettlements(
        withChangeToBilling(rt, settlingWithHistory(rt, job, [data], log), job, [data]),
        data.connectionId,
        data.entity,
        `job-${job.id}`,
        job.id!,
        log,
      );
      const lockTtlMs = rt.recordLockTtlMs ?? RECORD_LOCK_TTL_MS;
      // One round trip: the record lock, the ledger entry, whether the buyer is already ensured.
      const [begun] = await rt.upsertState.beginMany(
        data.connectionId,
        data.entity,
        [{ erpId: data.erpId, buyerId: record.buyer?.buyerId }],
        lockTtlMs,
        settlements.owner,
      );
      if (begun!.locked) settlements.locked(data.erpId);
      // The record's lock is kept while the job runs, however long its billing calls take.
      const untrack = begun!.locked
        ? leases.track(recordLocksLease(rt, data.connectionId, data.entity, settlements, lockTtlMs))
        : () => {};
      try {
        return await upsertRecord(rt, control, record, begun!, settlements, { signal, log });
      } finally {
        untrack();
        // One round trip: the outcome (ledger write, quarantine cleared, in-flight settled) and the lock released.
        await settlements.flush();
      }
    },
  );
}
