import { DelayedError, type Job, RateLimitError } from 'bullmq';
import type { Logger } from 'pino';
import { ParkedError, TransientError } from '../../src/errors/index.js';
import { withQuotaWaitPolicy } from '../../src/pipeline/quota-wait-policy.js';
import { decidePullRunning } from '../../src/waits/pull-running-waits.js';
import { decideVendorFailure, historyLane } from '../../src/waits/vendor-waits.js';
import { defer } from '../admission/defer.js';
import { PullPayload, QUEUES } from '../catalog.js';
import { defineJob } from '../define-job.js';
import { pullStream } from './pull-stream.js';
import { readAnnounced } from './read-announced.js';
import { sweepDeletes } from './sweep-deletes.js';
import type { PullHelpers, PullResult, PullRun } from './types.js';

/**
 * Reads one (connection, entity) stream from its checkpoint minus the lookback overlap up to
 * now − settle delay, page by page. Each page: map every record (failures to quarantine, never stopping
 * the page), skip content the ledger already holds, one addBulk of upsert jobs, and only then the
 * checkpoint (mid-run only for streams sorted by their cursor; otherwise at the end of the run).
 * The steps: take the stream's pull lock, read it (jobs/pull/pull-stream.ts) under the quota wait
 * policy, and on failure record the error and park a vendor outage.
 */
export function pullProcessor(rt: PullHelpers) {
  return defineJob(QUEUES.pull, PullPayload, rt, async ({ job, data, token, signal, log }): Promise<PullResult> => {
    const run = pullRun(rt, job, data, signal, log);
    // Two incremental pulls of one stream at once would only duplicate work (and could roll the
    // checkpoint back): the second one returns at once.
    // A targeted read (webhooks) reads by id and moves no checkpoint: it runs beside the stream's pull.
    const releasePull =
      run.windowKey || data.webhook
        ? async () => {}
        : await rt.locks.tryAcquireIncrementalPull(run.conn, run.entity, `job-${job.id}`);
    if (!releasePull) {
      // A repair's pull must read after the rewind: it comes back once the running pull is done, without
      // using an attempt; any other pull skips (src/waits/pull-running-waits.ts).
      const wait = decidePullRunning(data.waitForRunning === true, token !== undefined, Date.now());
      if (wait.kind === 'wait' && token !== undefined)
        return await defer(job, token, { reason: 'pull-running', at: wait.untilMs });
      log.info('an incremental pull of this stream is already running; skipped');
      return { pulled: 0, enqueued: 0, unchanged: 0, quarantined: 0, deleted: 0, pages: 0, cursor: null };
    }
    try {
      const result = await pullUnderQuotaPolicy(run);
      await rt.outages.markUp(run.conn);
      return result;
    } catch (err) {
      throw await pullFailure(run, job.attemptsMade, err);
    } finally {
      await releasePull();
    }
  });
}

function pullRun(rt: PullHelpers, job: Job, data: PullPayload, signal: AbortSignal | undefined, log: Logger): PullRun {
  const { connectionId: conn, entity, window } = data;
  const handle = rt.connection(conn);
  const until = new Date(Date.now() - handle.config.settleDelaySeconds * 1000);
  const windowKey = window ? `${data.runId ?? 'adhoc'}-${window.from}-${window.to}` : undefined;
  return {
    rt,
    job,
    data,
    conn,
    entity,
    handle,
    stream: handle.connector.streams[entity],
    until,
    windowKey,
    // Announced reads go first; a backfill window or a repair's pull reads history (a first sync is found later).
    lane: data.webhook
      ? 'announced'
      : historyLane(Boolean(handle.config.webhooks) && (windowKey !== undefined || data.runId !== undefined)),
    signal,
    log,
  };
}

/**
 * Fair scheduling: a long wait for a vendor slot gives the worker slot back (the job is delayed until
 * its slot) when nothing is lost by it: before the first call, or on a stream whose progress is saved
 * page by page, or one that skips on its next start what it already handed over (`resumable`, which it
 * can only where the read is told what the pipeline holds: a settle delay of a second or more,
 * pull-stream.ts). A read that would start over from nothing waits in place instead.
 */
async function pullUnderQuotaPolicy(run: PullRun): Promise<PullResult> {
  let slots = 0;
  const resumable = run.stream.resumable === true && run.handle.config.settleDelaySeconds >= 1;
  return await withQuotaWaitPolicy(
    {
      maxInPlaceWaitMs: run.rt.config.sync.quotaWaitInPlaceMs,
      deferrable: () => slots === 0 || run.stream.isSorted || resumable || run.data.webhook !== undefined,
      onSlot: () => void slots++,
      lane: () => run.lane ?? 'current',
    },
    () =>
      run.data.webhook
        ? readAnnounced(run, run.data.webhook.batch)
        : run.data.deletes
          ? sweepDeletes(run)
          : pullStream(run),
  );
}

/** What a failed pull leaves behind, and the error it fails with (a vendor outage becomes a park). */
async function pullFailure(
  { rt, conn, entity, windowKey }: PullRun,
  attemptsMade: number,
  err: unknown,
): Promise<unknown> {
  // What `erp-sync status` shows next to "last success": why incremental pulls of this stream fail. Deferrals
  // (quota parking, rate limits) are not failures. Error messages carry no secrets (src/errors).
  if (
    !windowKey &&
    !(err instanceof DelayedError) &&
    !(err instanceof RateLimitError) &&
    !(err instanceof ParkedError)
  ) {
    await rt.syncStatus.recordLastError(conn, entity, err instanceof Error ? err.message : String(err));
  }
  // The vendor failed this pull twice in a row (each time after the call's own retries): an outage
  // (src/waits/vendor-waits.ts). The pull waits for it, without spending more attempts, until the vendor
  // answers; the outage is shown in metrics (erpsync_vendor_up) and `erp-sync status` until the next successful pull.
  const outageWait = decideVendorFailure(
    err instanceof TransientError,
    attemptsMade,
    Date.now(),
    rt.config.sync.vendorOutageRetrySeconds * 1000,
  );
  if (outageWait?.kind !== 'park') return err;
  const outage = await rt.outages.markDown(conn, (err as Error).message);
  return new ParkedError(conn, outageWait.untilMs, {
    why: `vendor outage since ${new Date(outage.since).toISOString()}: ${(err as Error).message}`,
    cause: err,
  });
}
