import { DelayedError, type Job } from 'bullmq';
import type { Logger } from 'pino';
import type { ConnectionControl, HeldJob } from '../src/pipeline/connection-control.js';
import { putBack } from './defer.js';

/**
 * Holds back the jobs of a paused connection (src/pipeline/connection-control.ts), called by
 * jobs/define-job.ts as each pull, backfill window, reconcile or upsert job starts:
 * - running connection: the job runs. Every start reads the pause flag (one Redis round trip, no
 *   per-process cache), so a pause is honoured by every worker process from the next job start on;
 *   jobs already running finish.
 * - paused: the job is recorded as held and moved back to delayed (not run, not failed, no attempt
 *   used). A resume (operations/resume-connection.ts) releases the held jobs at once. A job held just as the
 *   resume happens releases itself: after its move it looks again.
 * - a job scheduler's run of a paused connection is dropped instead: BullMQ adds a scheduler's next run
 *   when the current one starts, whether that one completes or is delayed, so held runs would pile up
 *   one per interval and all run at the resume. The resume enqueues one pull per entity instead.
 *
 * Safety net only (resume is what releases them): a held job starts again on its own after
 * max(`sync.pausedRecheckSeconds`, how long the connection has been paused so far), ±10 %, and is held
 * again while the pause lasts. The wait doubling with the pause keeps each held job's starts few
 * (BullMQ counts them against an upsert's started-attempts budget, and each start of an upsert takes a
 * slot of the billing rate limit): about log2(pause / recheck) + 1 of them.
 */
export interface ConnectionGate {
  /** Returns when the job may run; throws DelayedError once the job is held (or a scheduler's run dropped). */
  admit(ctx: { queue: string; job: Job; token?: string; connectionId?: string; log: Logger }): Promise<void>;
}

export function connectionGate(
  control: Pick<ConnectionControl, 'holdIfPaused' | 'released'>,
  options: { recheckSeconds: number; now?: () => number; random?: () => number },
): ConnectionGate {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  return {
    async admit({ queue, job, token, connectionId, log }) {
      // Without a token (a processor called directly, not by a worker) the job cannot be moved: it runs.
      if (connectionId === undefined || token === undefined || job.id === undefined) return;
      const held: HeldJob = { queue, jobId: job.id };
      const fromScheduler = job.repeatJobKey !== undefined;
      const pause = await control.holdIfPaused(connectionId, fromScheduler ? undefined : held);
      if (!pause) return;
      const t = now();
      // max(recheck, paused so far), ±10 %.
      const recheckMs = Math.max(options.recheckSeconds * 1000, t - pause.since);
      const at = await putBack(job, token, { reason: 'paused', at: t + Math.round(recheckMs * 0.9), jitterMs: Math.round(recheckMs * 0.2), random });
      if (fromScheduler) {
        const removed = await job.remove().then(
          () => true,
          () => false,
        );
        if (removed) {
          log.info({ scheduler: job.repeatJobKey }, 'connection paused: scheduled run dropped (its scheduler goes on)');
          throw new DelayedError();
        }
        // Not removable (BullMQ keeps a scheduler's current run): held like any other job.
      }
      // Looked at again after the move: a resume between the first look and the move has already read
      // the held jobs, maybe before this one was delayed, so the job releases itself.
      if (await control.holdIfPaused(connectionId, held)) {
        // Upserts come by the thousand and log nothing at info when they succeed either.
        log[queue === 'upsert' ? 'debug' : 'info'](
          { since: new Date(pause.since).toISOString(), recheckInMs: at - t },
          'connection paused: job held until it is resumed',
        );
      } else {
        await job.promote().catch(() => {}); // already released by the resume
        await control.released(connectionId, [held]);
        log.info('connection resumed while the job was being held: released');
      }
      throw new DelayedError();
    },
  };
}
