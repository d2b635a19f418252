import { DelayedError, type Job, RateLimitError, UnrecoverableError, WaitingChildrenError } from 'bullmq';
import type { Logger } from 'pino';
import { ParkedError } from '../../src/errors/index.js';
import type { RunHistory } from '../../src/pipeline/run-history.js';
import { PullPayload, QUEUES, ReconcilePayload } from '../catalog.js';
import { pullRunRecord, reconcileRunRecord, type RunEnding, type RunTiming } from './run-record.js';

type JobProcessor = (job: Job, token?: string, signal?: AbortSignal) => Promise<unknown>;

/** The queues whose jobs leave a run record. */
export type RunQueue = typeof QUEUES.pull | typeof QUEUES.reconcile;

/**
 * A job put back to run later without having run: a parked connection (ParkedError, made a delay by
 * jobs/define-job.ts), a rate limit, a pull waiting for a running one, a parent waiting for its children.
 * BullMQ runs the job again and that run leaves its record. A deferral leaves none: a job may be put back
 * every second (a repair's pull waiting for a running one, a vendor outage retried every
 * `sync.vendorOutageRetrySeconds`), and such records would push every real run out of the bounded
 * history. Parks and outages show in `erp-sync status` and in metrics instead.
 */
function isDeferral(err: unknown): boolean {
  return (
    err instanceof DelayedError ||
    err instanceof RateLimitError ||
    err instanceof WaitingChildrenError ||
    err instanceof ParkedError
  );
}

/** Whether BullMQ will try the job again after this error (as Job.shouldRetryJob decides: attempts left, not unrecoverable). */
function willRetry(job: Job, err: unknown): boolean {
  const unrecoverable =
    err instanceof UnrecoverableError || (err instanceof Error && err.name === 'UnrecoverableError');
  return !unrecoverable && job.attemptsMade + 1 < (job.opts.attempts ?? 0);
}

/**
 * Wraps a pull or reconcile processor so that every run of it (every attempt that ran, whatever its end)
 * leaves a record in the run history (src/pipeline/run-history.ts).
 *
 * Why a wrapper around the processor rather than the Worker's 'completed'/'failed' events: the record is
 * written before the processor returns, so before BullMQ moves the job to completed, failed or its retry.
 * Whoever sees the job finished (a test, `erp-sync backfill`, a person) finds its record already there,
 * and a process that dies after the record was written re-runs the job (it is still active), which
 * writes its own record; with the events a process dying between the move and the write would lose the
 * record for good, and every reader would have to wait for follow-up writes. The wrapper also sees a
 * deferral as what it is (the error the processor threw), where the 'failed' event never fires for one.
 * It leaves jobs/pull/pull-processor.ts and jobs/define-job.ts as they are: it only reads the payload, the result, the
 * error and the job's last progress report.
 *
 * A record that cannot be written (Redis gone for a moment) is logged and the job's own outcome stands:
 * the history is for people, never a reason to fail or repeat a sync.
 */
export function withRunHistory(
  queue: RunQueue,
  deps: { runHistory: Pick<RunHistory, 'record'>; logger: Logger },
  processor: JobProcessor,
): JobProcessor {
  return async (job, token, signal) => {
    const startedAt = Date.now();
    const progressBefore = job.progress;
    const write = async (ending: RunEnding): Promise<void> => {
      const timing: RunTiming = { jobId: job.id, attempt: job.attemptsMade + 1, startedAt, endedAt: Date.now() };
      try {
        const record = describe(queue, job.data, timing, ending);
        if (record) await deps.runHistory.record(record);
      } catch (err) {
        deps.logger.warn({ err, queue, jobId: job.id }, 'could not write the run record; the job goes on');
      }
    };
    let result: unknown;
    try {
      result = await processor(job, token, signal);
    } catch (err) {
      if (!isDeferral(err)) {
        // A pull reports its progress after each page: a report made during this attempt is what it did before failing.
        const progress = job.progress !== progressBefore ? job.progress : undefined;
        await write({ error: err, retrying: willRetry(job, err), progress });
      }
      throw err;
    }
    await write({ result });
    return result;
  };
}

/**
 * The record of one run, or none for a payload the processor refused (invalid: nothing ran, and the job's
 * failed reason says why).
 */
function describe(queue: RunQueue, data: unknown, timing: RunTiming, ending: RunEnding) {
  if (queue === QUEUES.pull) {
    const p = PullPayload.safeParse(data);
    return p.success ? pullRunRecord(p.data, timing, ending) : undefined;
  }
  const p = ReconcilePayload.safeParse(data);
  return p.success ? reconcileRunRecord(p.data, timing, ending) : undefined;
}
