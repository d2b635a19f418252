import { DelayedError, type Job } from 'bullmq';
import type { Logger } from 'pino';
import type { ConnectionControl, HeldJob } from '../../src/pipeline/connection-control.js';
import { putBack } from './defer.js';

/**
 * Holds back the jobs of a paused connection (src/pipeline/connection-control.ts), called by
 * jobs/define-job.ts as each pull, backfill window, reconcile or upsert job starts. Every start reads the
 * pause flag (one Redis round trip, no per-process cache), so a pause holds in every worker process from
 * the next job start on; jobs already running finish.
 *
 * | connection | job                   | decision                                                           |
 * |------------|-----------------------|--------------------------------------------------------------------|
 * | running    | any                   | runs                                                               |
 * | paused     | a job scheduler's run | dropped: BullMQ adds a scheduler's next run when this one starts,  |
 * |            |                       | so held runs would pile up one per interval; the resume enqueues   |
 * |            |                       | one pull per entity instead                                        |
 * | paused     | any other             | held: recorded, moved back to delayed (not run, not failed, no     |
 * |            |                       | attempt used) until the resume (operations/resume-connection.ts)   |
 * |            |                       | releases it; held just as the resume happens, it looks again after |
 * |            |                       | its move and releases itself                                       |
 *
 * Safety net only: a held job starts again on its own after max(`sync.pausedRecheckSeconds`, how long the
 * pause has lasted), ±10 %, and is held again while it lasts: about log2(pause / recheck) + 1 starts, few,
 * because BullMQ counts them against an upsert's started attempts and each takes a billing slot.
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
      const at = await putBack(job, token, {
        reason: 'paused',
        at: t + Math.round(recheckMs * 0.9),
        jitterMs: Math.round(recheckMs * 0.2),
        random,
      });
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
