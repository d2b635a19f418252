import type { Job, Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { Metrics } from '../../src/observability/metrics.js';
import type { InFlight } from '../../src/pipeline/in-flight.js';
import type { Quarantine } from '../../src/pipeline/quarantine.js';
import type { RecordLock } from '../../src/pipeline/record-lock.js';
import type { BackfillRuns } from '../../src/pipeline/backfill-runs.js';
import { UPSERT_BATCH, type UpsertPayload } from '../catalog.js';
import { handOverJobId } from './enqueue-upserts.js';

export interface FailedUpsertHelpers {
  logger: Logger;
  metrics: Pick<Metrics, 'recordsQuarantined'>;
  quarantine: Pick<Quarantine, 'get' | 'put'>;
  inFlight: Pick<InFlight, 'settle' | 'get' | 'track' | 'handOver'>;
  locks: Pick<RecordLock, 'release'>;
  /** Where the records of a failed batch go: each to a job of its own. */
  queues: { upsert: Pick<Queue, 'addBulk'> };
  backfillRuns: Pick<BackfillRuns, 'trackUpserts'>;
}

/**
 * Why an upsert job ended failed, as a quarantine reason. The processor quarantines what it refuses
 * itself (BILLING_REJECTED, BILLING_CONFLICT, …); these are the ways a job ends that it never saw:
 * - STALLED: its worker died mid-job more often than `sync.maxStalledCount` (BullMQ fails it inside its
 *   stalled-job check, and no worker's 'failed' event fires, so the sweep finds it);
 * - JOB_INVALID: the payload failed its schema (the record cannot be read from it);
 * - BILLING_COMPANY_CHANGED: its connection's billing key is now another company's than the one its state
 *   was written for (jobs/admission/billing-company-guard.ts); `erp-sync state rebind --same-company` replays it;
 * - RETRIES_EXHAUSTED: its attempts, or its started attempts, are spent.
 */
export function failureReason(
  message: string,
): 'STALLED' | 'JOB_INVALID' | 'BILLING_COMPANY_CHANGED' | 'RETRIES_EXHAUSTED' {
  if (/stalled more than allowable limit/i.test(message)) return 'STALLED';
  if (message.startsWith('invalid upsert payload')) return 'JOB_INVALID';
  if (message.startsWith('billing company changed for connection')) return 'BILLING_COMPANY_CHANGED';
  return 'RETRIES_EXHAUSTED';
}

/** The record an upsert job was for, read as leniently as possible (a payload may be invalid). */
function recordOf(data: unknown): { connection: string; entity: string; erpId: string; version: string } | undefined {
  const d = data as Record<string, unknown> | undefined;
  const s = (k: string) => (typeof d?.[k] === 'string' && d[k] !== '' ? (d[k] as string) : undefined);
  const connection = s('connectionId');
  const entity = s('entity');
  const erpId = s('erpId');
  if (!connection || !entity || !erpId) return undefined;
  return { connection, entity, erpId, version: s('version') ?? '' };
}

/**
 * An upsert job that ended failed, however it failed: the record is quarantined with its reason
 * (unless the processor already did, for this version or a newer one), its in-flight entry settled,
 * its record lock released, and the failed job removed, so the record's next enqueue (same content, same job id) is not
 * deduplicated away against it. Idempotent: the worker's 'failed' event and the sweep may both call it.
 * Returns whether the record is now accounted for (false: the payload names no record; the job stays).
 */
export async function accountForFailedUpsert(
  h: FailedUpsertHelpers,
  job: Job,
  message = job.failedReason ?? '',
): Promise<boolean> {
  if (job.name === UPSERT_BATCH) return handOverFailedBatch(h, job, message);
  const record = recordOf(job.data);
  if (!record) {
    h.logger.error(
      { jobId: job.id, reason: message },
      'a failed upsert job names no record; it is kept in the failed set for a person',
    );
    return false;
  }
  const { connection, entity, erpId, version } = record;
  const existing = await h.quarantine.get(connection, entity, erpId);
  if (!existing || existing.version < version) {
    const reason = failureReason(message);
    await h.quarantine.put({
      connection,
      entity,
      erpId,
      version,
      reason,
      message,
      stage: 'upsert',
      at: Date.now(),
      attempts: job.attemptsMade,
      started: job.attemptsStarted,
      payload: job.data,
    });
    h.metrics.recordsQuarantined.inc({ connection, entity, reason });
  }
  await h.inFlight.settle(connection, entity, erpId, job.id!);
  // A job failed while its worker held the record's lock (stalled: the worker died) leaves it behind.
  await h.locks.release(connection, entity, erpId, `job-${job.id}`);
  await job.remove();
  return true;
}

/**
 * A batch that ended failed as a whole (stalled past `sync.maxStalledCount`, or its attempts spent on an
 * error outside any one record, such as Redis gone mid-batch): its failure is nobody's record's. Each of
 * its records still in flight under the batch leaves it as a job of its own, with its own attempts (a
 * record that itself kills its worker then ends quarantined as STALLED, alone); records the batch had
 * finished are left alone. Then the failed batch is removed.
 */
async function handOverFailedBatch(h: FailedUpsertHelpers, job: Job, message: string): Promise<boolean> {
  const data = job.data as { records?: unknown; runId?: unknown } | undefined;
  const records = (Array.isArray(data?.records) ? data.records : []).map(recordOf);
  if (!records.length || records.some((r) => r === undefined)) {
    h.logger.error(
      { jobId: job.id, reason: message },
      'a failed upsert batch names no readable records; it is kept in the failed set for a person',
    );
    return false;
  }
  const jobs = [];
  for (const [i, r] of records.entries()) {
    const { connection, entity, erpId } = r!;
    await h.locks.release(connection, entity, erpId, `job-${job.id}`);
    const payload = (data!.records as UpsertPayload[])[i]!;
    const handOverId = handOverJobId(payload, job.id!);
    // Its in-flight entry moved to the hand-over job first (tracked before the job exists, as in
    // enqueueUpserts), checked and moved in one step. Finished in the batch, or a newer version is on its
    // way: left alone. An entry that already names the hand-over job was handed over by a call running at
    // the same time (the worker's 'failed' event, the sweep, a backfill counting its run): its entry is
    // left as it is (put back, it would outlive the job that settles it), and its job added all the same
    // (BullMQ keeps one job per id), so that this call too returns only once the job exists and is
    // tracked under the run.
    if (!(await h.inFlight.handOver(connection, job.id!, { entity, erpId, jobId: handOverId, payload }))) continue;
    jobs.push({
      name: 'upsert' as const,
      data: payload,
      opts: { jobId: handOverId, ...(job.opts.priority !== undefined ? { priority: job.opts.priority } : {}) },
    });
  }
  if (jobs.length) await h.queues.upsert.addBulk(jobs);
  if (typeof data!.runId === 'string' && jobs.length)
    await h.backfillRuns.trackUpserts(
      data!.runId,
      jobs.map((j) => j.opts.jobId),
    );
  h.logger.warn(
    { jobId: job.id, reason: message, handedOver: jobs.length },
    'an upsert batch failed as a whole; its unfinished records go on as jobs of their own',
  );
  await job.remove();
  return true;
}
