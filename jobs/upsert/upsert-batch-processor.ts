import { withChangeToBilling } from './change-to-billing.js';
import type { Job, Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { AppConfig } from '../../src/config.js';
import { SyncError } from '../../src/errors/index.js';
import { serializeError } from '../../src/observability/logger.js';
import type { BackfillRuns } from '../../src/pipeline/backfill-runs.js';
import type { InFlight } from '../../src/pipeline/in-flight.js';
import type { RecordBegun } from '../../src/pipeline/upsert-state.js';
import { QUEUES, UPSERT_BATCH, UpsertBatchJobData, type UpsertJobData, type UpsertPayload } from '../catalog.js';
import { defineJob } from '../define-job.js';
import { enqueueUpserts, handOverJobId } from './enqueue-upserts.js';
import { JobSettlements } from './job-settlements.js';
import { settlingWithHistory } from './upsert-history.js';
import { deferredUntil } from '../admission/defer.js';
import { upsertProcessor } from './upsert-processor.js';
import { upsertRecord } from './upsert-record.js';
import { prepareRecord } from './prepare-record.js';
import { RECORD_LOCK_TTL_MS, recordLocksLease } from './record-locks-lease.js';
import type { PreparedRecord, RecordControl, UpsertHelpers, UpsertOutcome } from './types.js';

/** What a batch job uses beyond a single-record job: where a record leaving the batch goes. */
export interface UpsertBatchHelpers extends UpsertHelpers {
  config: { sync: Pick<AppConfig['sync'], 'dependencyWaitSeconds' | 'backoffMs'> };
  inFlight: Pick<InFlight, 'settle' | 'track'>;
  backfillRuns: Pick<BackfillRuns, 'trackUpserts'>;
  queues: { upsert: Pick<Queue, 'rateLimit' | 'addBulk'> };
}

export interface UpsertBatchResult {
  outcomes: Partial<Record<UpsertOutcome | 'quarantined' | 'left', number>>;
  /** The records that left the batch, each as a single-record job of its own. */
  left: Array<{ erpId: string; jobId: string; why: string }>;
}

/** A record leaving its batch: when its own job may start, with which payload, and why. */
class LeaveBatch extends Error {
  constructor(
    readonly at: number,
    readonly data: UpsertJobData,
    readonly why: string,
    /** Billing is paused: the batch's remaining records leave too, without trying. */
    readonly stopBatch = false,
  ) {
    super(why);
  }
}

/**
 * A batch of one connection's records of one entity (`sync.upsertBatchSize` > 1), one after the other,
 * each through the same `upsertRecord` as a single-record job, with the batch's id as its job.
 * The unit of retry and quarantine stays one record:
 * - written, unchanged, stale: done;
 * - refused by billing (a non-retryable error): quarantined by `upsertRecord`, as in its own job; the
 *   batch goes on;
 * - set aside (its lock held by another version, its key's slot later, a credit note's invoices not there
 *   yet), or failed in a way a retry may mend: it leaves the batch as a single-record job of its own,
 *   delayed as its own job would have been (a retry after `sync.backoffMs`), with its attempts ahead of
 *   it; the batch's other records are not retried;
 * - billing paused (a 429 at deployment scope, or billing down): it and every record not yet tried leave,
 *   and wait in the paused queue.
 * A record leaves by the one way records enter the queue (`enqueueUpserts`: its in-flight entry now names
 * its own job) and, in a backfill, is tracked under the run, before the batch completes.
 * The batch's Redis work is two round trips, not two per record: one BEGIN for every record's lock and
 * ledger entry, one SETTLE for every outcome (jobs/upsert/job-settlements.ts), before any record leaves. A batch
 * that dies or fails before SETTLE: docs/architecture.md, "A worker dies mid-upsert".
 */
export function upsertBatchProcessor(rt: UpsertBatchHelpers) {
  return defineJob(
    QUEUES.upsert,
    UpsertBatchJobData,
    rt,
    async ({ job, data, signal, log, leases }): Promise<UpsertBatchResult> => {
      const result: UpsertBatchResult = { outcomes: {}, left: [] };
      const { connectionId: conn, entity } = data;
      const settlements = new JobSettlements(
        withChangeToBilling(rt, settlingWithHistory(rt, job, data.records, log), job, data.records),
        conn,
        entity,
        `job-${job.id}`,
        job.id!,
        log,
      );
      const batch = await beginBatch(rt, data, settlements);
      // The locks not settled yet are kept while the batch runs, however long its records take.
      const untrack = leases.track(recordLocksLease(rt, conn, entity, settlements, batch.lockTtlMs));
      let leaving: LeaveBatch[];
      try {
        leaving = await runRecords(rt, job, batch, settlements, { result, signal, log });
      } finally {
        untrack();
        // One round trip: every record's outcome, and the locks released, before any record leaves.
        await settlements.flush();
      }
      if (leaving.length) await leave(rt, job, data, leaving, result);
      for (let i = 0; i < result.left.length; i++) count(result, 'left');
      return result;
    },
  );
}

type Outcome = keyof UpsertBatchResult['outcomes'];
const count = (result: UpsertBatchResult, k: Outcome) => (result.outcomes[k] = (result.outcomes[k] ?? 0) + 1);

/** A batch begun: its records, which are a second copy of an earlier one, and what BEGIN answered for the others. */
interface BegunBatch {
  records: PreparedRecord[];
  twice: boolean[];
  begun: RecordBegun[];
  lockTtlMs: number;
}

/** One round trip for the batch: every record's lock, ledger entry and whether its buyer is ensured. */
async function beginBatch(
  rt: UpsertBatchHelpers,
  data: z.infer<typeof UpsertBatchJobData>,
  settlements: JobSettlements,
): Promise<BegunBatch> {
  const records = data.records.map(prepareRecord);
  // A record id twice in one batch: the later copy leaves as a job of its own, so it begins from the
  // ledger as the first copy leaves it (BEGIN reads every record's entry before any is written).
  const seen = new Set<string>();
  const twice = records.map((r) => seen.has(r.data.erpId) || !seen.add(r.data.erpId));
  const first = records.filter((_, i) => !twice[i]);
  const lockTtlMs = rt.recordLockTtlMs ?? RECORD_LOCK_TTL_MS;
  const begun = await rt.upsertState.beginMany(
    data.connectionId,
    data.entity,
    first.map((r) => ({ erpId: r.data.erpId, buyerId: r.buyer?.buyerId })),
    lockTtlMs,
    settlements.owner,
  );
  for (const [i, r] of first.entries()) if (begun[i]!.locked) settlements.locked(r.data.erpId);
  return { records, twice, begun, lockTtlMs };
}

interface BatchRun {
  result: UpsertBatchResult;
  signal?: AbortSignal;
  log: Logger;
}

/** The batch's records one after the other; returns those that leave it. */
async function runRecords(
  rt: UpsertBatchHelpers,
  job: Job,
  batch: BegunBatch,
  settlements: JobSettlements,
  run: BatchRun,
): Promise<LeaveBatch[]> {
  const leaving: LeaveBatch[] = [];
  let stopped = false;
  let b = 0;
  for (const [i, record] of batch.records.entries()) {
    const own = record.data;
    if (batch.twice[i]) {
      leaving.push(new LeaveBatch(0, own, 'its record is earlier in the batch'));
      continue;
    }
    const recordBegun = batch.begun[b++]!;
    if (stopped) {
      if (recordBegun.locked) settlements.add(own.erpId, { outcome: 'released' });
      leaving.push(new LeaveBatch(0, own, 'billing paused'));
      continue;
    }
    const left = await runRecord(rt, job, record, recordBegun, settlements, run);
    if (left) {
      leaving.push(left);
      stopped = left.stopBatch;
    }
    if (settlements.urgent) await settlements.flush();
  }
  return leaving;
}

/**
 * What a record's failure in its batch makes of it: `leave` (it was set aside, or billing paused),
 * `quarantined` (refused: `upsertRecord` quarantined it) or `retry-alone` (a retry may mend it: its next
 * attempt, in its own job, after the backoff).
 */
export function classifyBatchRecordFailure(err: unknown): 'leave' | 'quarantined' | 'retry-alone' {
  if (err instanceof LeaveBatch) return 'leave';
  if (err instanceof SyncError && !err.retryable) return 'quarantined';
  return 'retry-alone';
}

/** One record through the same `upsertRecord` as a single-record job: counted, or leaving the batch. */
async function runRecord(
  rt: UpsertBatchHelpers,
  job: Job,
  record: PreparedRecord,
  begun: RecordBegun,
  settlements: JobSettlements,
  { result, signal, log }: BatchRun,
): Promise<LeaveBatch | undefined> {
  const own = record.data;
  const control: RecordControl = {
    jobId: job.id!,
    attemptsMade: job.attemptsMade,
    setAside: async (d, updated) => Promise.reject(new LeaveBatch(await deferredUntil(d), updated ?? own, 'set aside')),
    keep: async () => {},
    paused: () => Promise.reject(new LeaveBatch(0, own, 'billing paused', true)),
  };
  try {
    const { outcome } = await upsertRecord(rt, control, record, begun, settlements, { signal, log });
    count(result, outcome);
    return undefined;
  } catch (err) {
    const failure = classifyBatchRecordFailure(err);
    if (failure === 'leave') return err as LeaveBatch;
    if (failure === 'quarantined') return void count(result, 'quarantined');
    log.warn(
      { erpId: own.erpId, err: serializeError(err) },
      'record failed in its batch; it is retried as a job of its own',
    );
    return new LeaveBatch(Date.now() + rt.config.sync.backoffMs, own, (err as Error).message);
  }
}

async function leave(
  rt: UpsertBatchHelpers,
  job: Job,
  batch: z.infer<typeof UpsertBatchJobData>,
  leaving: LeaveBatch[],
  result: UpsertBatchResult,
): Promise<void> {
  const now = Date.now();
  const jobs = leaving.map((l) => ({
    name: 'upsert' as const,
    // A record's payload is what the pull mapped (its body checked again by its own job).
    data: l.data as UpsertPayload,
    opts: {
      jobId: handOverJobId(l.data as UpsertPayload, job.id!),
      priority: job.opts.priority,
      delay: Math.max(0, l.at - now),
    },
  }));
  await enqueueUpserts(rt, jobs);
  if (batch.runId)
    await rt.backfillRuns.trackUpserts(
      batch.runId,
      jobs.map((j) => j.opts.jobId),
    );
  for (const [i, l] of leaving.entries())
    result.left.push({ erpId: l.data.erpId, jobId: jobs[i]!.opts.jobId, why: l.why });
}

/** The upsert queue's processor: single-record jobs and batches, by the job's name. */
export function upsertQueueProcessor(rt: UpsertBatchHelpers) {
  const single = upsertProcessor(rt);
  const batch = upsertBatchProcessor(rt);
  return (job: Job, token?: string, signal?: AbortSignal): Promise<unknown> =>
    job.name === UPSERT_BATCH ? batch(job, token, signal) : single(job, token, signal);
}
