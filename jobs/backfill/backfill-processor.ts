import { createHash } from 'node:crypto';
import type { Queue } from 'bullmq';
import { dayWindows } from '../../src/billing/dates.js';
import type { BackfillRuns } from '../../src/pipeline/backfill-runs.js';
import { BackfillPayload, type PullPayload, PRIORITY, QUEUES, UPSERT_BATCH } from '../catalog.js';
import { defineJob } from '../define-job.js';
import { accountForFailedUpsert, type FailedUpsertHelpers } from '../upsert/failed-upsert.js';
import type { PullResult } from '../pull/types.js';
import type { BackfillHelpers, BackfillRequest, BackfillScheduling, BackfillSummary } from './types.js';

/**
 * The same request always gets the same run id, so re-running a backfill resumes it: jobs already
 * done keep their ids (BullMQ ignores re-adds) and each window resumes from its own checkpoint.
 */
export function backfillRunId(req: BackfillRequest): string {
  const h = createHash('sha256')
    .update(JSON.stringify([req.connectionId, [...req.entities].sort(), req.from, req.to]))
    .digest('hex');
  return `bf-${req.connectionId}-${h.slice(0, 12)}`;
}

/**
 * Adds a backfill as a BullMQ flow: one parent, one `pull` child per (entity, window), at a lower
 * priority than incremental pulls. Streams that cannot filter by document date (customers) get one
 * child for the whole range.
 */
export async function addBackfill(
  rt: BackfillScheduling,
  req: BackfillRequest,
  options: { restart?: boolean } = {},
): Promise<{ runId: string; children: number; alreadyDone: boolean }> {
  const { connector, config: c } = rt.connection(req.connectionId);
  const runId = options.restart ? `${backfillRunId(req)}-${Date.now().toString(36)}` : backfillRunId(req);
  const existing = await rt.queues.backfill.getJob(runId);
  // Running it again resumes: a completed run is done, unless some of its windows failed; then only
  // those windows run again (their failed jobs are removed so their ids can be used again).
  let only: Set<string> | undefined;
  if (existing && (await existing.isCompleted())) {
    const failed = (existing.returnvalue as BackfillSummary | null)?.failedWindows ?? [];
    if (!failed.length) return { runId, children: 0, alreadyDone: true };
    only = new Set(failed.map((f) => f.window));
    for (const f of failed) await (await rt.queues.pull.getJob(`${runId}-${f.window}`))?.remove();
    await existing.remove({ removeChildren: false });
  }
  if (existing && (await existing.isFailed())) await existing.remove({ removeChildren: false });
  const windows = dayWindows(req.from, req.to, rt.config.sync.backfillWindowDays);
  const children = [];
  for (const entity of req.entities) {
    if (!c.entities.includes(entity)) continue;
    const stream = connector.streams[entity];
    // The incremental checkpoint is left alone. Setting it to "now" would lose every record modified
    // before the backfill whose document date lies outside its window (post-dated invoices, or a
    // vendor's local "tomorrow" — e.g. QuickBooks TxnDate in IST after 18:30 UTC). The first incremental
    // read starts from the beginning instead; what the backfill wrote is skipped by its content hash.
    const ws = stream.supportsWindow ? windows : [{ from: req.from, to: req.to }];
    for (const w of ws) {
      if (only && !only.has(`${entity}-${w.from}`)) continue;
      children.push({
        name: 'pull',
        queueName: QUEUES.pull,
        data: {
          connectionId: req.connectionId,
          entity,
          window: w,
          runId,
          ...(req.reread ? { reread: true as const } : {}),
        } satisfies PullPayload,
        // A window that fails for good does not hold the run open for ever: the parent still runs once every
        // window has ended, and reports the failed ones (getIgnoredChildrenFailures) with their reasons.
        opts: {
          ...rt.options.pull,
          jobId: `${runId}-${entity}-${w.from}`,
          priority: PRIORITY.backfill,
          removeOnComplete: { age: 7 * 24 * 3600 },
          ignoreDependencyOnFailure: true,
        },
      });
    }
  }
  await rt.flow.add({
    name: 'backfill',
    queueName: QUEUES.backfill,
    data: { ...req, runId } satisfies BackfillPayload,
    opts: { jobId: runId, ...rt.options.backfill, removeOnComplete: { age: 7 * 24 * 3600 } },
    children,
  });
  return { runId, children: children.length, alreadyDone: false };
}

/**
 * The summary of a completed run, read from a fresh copy of the parent job: a copy fetched before its
 * completion carries no return value even when its state, read afterwards, says completed.
 */
export async function readBackfillSummary(
  rt: { queues: { backfill: Pick<Queue, 'getJob'> } },
  runId: string,
): Promise<BackfillSummary> {
  const done = await rt.queues.backfill.getJob(runId);
  const value = done?.returnvalue as BackfillSummary | null | undefined;
  if (!value || typeof value.enqueued !== 'number') {
    throw new Error(
      `backfill ${runId} completed but its summary is missing (the job ${done ? 'has no return value' : 'was removed'})`,
    );
  }
  return value;
}

/** A job that will not run again: completed, failed for good, or gone (removed by retention, or never added). */
const FINISHED: ReadonlySet<string> = new Set(['completed', 'failed', 'unknown']);

/**
 * How many upserts this run enqueued are not finished yet (waiting, delayed, active): only the run's
 * own jobs count, so a backfill does not wait for other connections' traffic. Finished ids are dropped
 * from the run's set as they are found (BackfillRuns), each job's state asked of BullMQ by its id, so
 * each call costs about the number of jobs still pending (bounded by sync.backlogHighWater) plus those
 * finished since the last.
 *
 * A failed batch is not finished while its unwritten records have not gone on as jobs of their own: the
 * worker's 'failed' event hands them over a moment after BullMQ fails the batch (and nobody does for a
 * batch failed by BullMQ's stalled-job check until the next sweep). So the count hands a failed batch
 * over itself (idempotent with the worker's own hand-over), which tracks the new jobs under the run,
 * before it drops the batch: a run is never reported finished while records it pulled are still to be
 * written.
 */
export async function runBacklog(
  rt: { backfillRuns: Pick<BackfillRuns, 'pendingUpserts'>; queues: { upsert: Pick<Queue, 'getJobState' | 'getJob'> } },
  runId: string,
  failedUpsert: FailedUpsertHelpers,
): Promise<number> {
  const finished = async (id: string): Promise<boolean> => {
    const state = await rt.queues.upsert.getJobState(id);
    if (state !== 'failed') return FINISHED.has(state);
    const job = await rt.queues.upsert.getJob(id);
    if (job?.name === UPSERT_BATCH) await accountForFailedUpsert(failedUpsert, job);
    return true;
  };
  return rt.backfillRuns.pendingUpserts(runId, (ids) => Promise.all(ids.map(finished)));
}

/** The parent runs once every window is done: it sums the children's results. */
export function backfillProcessor(rt: BackfillHelpers) {
  return defineJob(QUEUES.backfill, BackfillPayload, rt, async ({ job, log }): Promise<BackfillSummary> => {
    const values = Object.values(await job.getChildrenValues()) as PullResult[];
    const failures = await job.getIgnoredChildrenFailures();
    const runPrefix = `${(job.data as { runId: string }).runId}-`;
    const failedWindows = Object.entries(failures).map(([key, reason]) => ({
      window: key.slice(key.lastIndexOf(':') + 1).replace(runPrefix, ''),
      reason: String(reason),
    }));
    const sum: BackfillSummary = {
      windows: values.length + failedWindows.length,
      pulled: 0,
      enqueued: 0,
      unchanged: 0,
      quarantined: 0,
    };
    if (failedWindows.length) sum.failedWindows = failedWindows;
    for (const v of values) {
      sum.pulled += v.pulled;
      sum.enqueued += v.enqueued;
      sum.unchanged += v.unchanged;
      sum.quarantined += v.quarantined;
      if (v.notForBilling) sum.notForBilling = (sum.notForBilling ?? 0) + v.notForBilling;
    }
    if (failedWindows.length) log.warn({ failedWindows }, 'backfill finished with windows that failed');
    else log.info(sum, 'backfill finished');
    return sum;
  });
}
