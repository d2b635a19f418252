import { DelayedError, type Job, RateLimitError, UnrecoverableError, WaitingChildrenError } from 'bullmq';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { formatZodIssues, ParkedError, SyncError } from '../src/errors/index.js';
import { serializeError } from '../src/observability/logger.js';
import type { Metrics } from '../src/observability/metrics.js';
import type { ConnectionSlots } from '../src/pipeline/connection-slots.js';
import type { WakeLine } from '../src/pipeline/wake-line.js';
import { PRIORITY } from './catalog.js';

/**
 * At most `max` jobs of one connection run at once (every process together): a job beyond that goes back
 * to the queue for `retryMs` (plus jitter) without using an attempt, and its worker slot serves another
 * connection meanwhile. The slot is a lease of `leaseMs`, renewed while the job runs.
 */
export interface ConnectionSlotsPolicy {
  slots: Pick<ConnectionSlots, 'take' | 'release'>;
  max: number;
  leaseMs: number;
  retryMs: number;
  /** Spaces out the wake-ups of a connection's waiting jobs (both for its job slots and its vendor quota). */
  line?: Pick<WakeLine, 'next'>;
}

/** How far apart a connection's jobs waiting for one of its job slots wake up. */
const SLOT_WAKE_SPACING_MS = 50;
import type { ConnectionGate } from './connection-gate.js';

export type Processor<P, R> = (ctx: { job: Job; data: P; token?: string; signal?: AbortSignal; log: Logger }) => Promise<R>;

/**
 * The wrapper every processor goes through:
 * - the payload is parsed with its schema; an invalid payload fails at once (UnrecoverableError);
 * - one child logger per job, bound to connection, entity and job id;
 * - a duration histogram by queue and result;
 * - classification in ONE place: a non-retryable SyncError becomes UnrecoverableError (no attempts
 *   wasted); BullMQ's control-flow errors (RateLimitError, DelayedError, WaitingChildrenError) pass;
 * - a parked connection (ParkedError: vendor quota spent or a long vendor wait, decided in
 *   src/http/wait-decision.ts) delays the job until the park ends, without using an attempt, so the
 *   worker slot serves other connections meanwhile. This is the only place a park becomes a delay.
 */
export function defineJob<S extends z.ZodTypeAny, R>(
  queue: string,
  schema: S,
  deps: { logger: Logger; metrics: Metrics; jobSlots?: ConnectionSlotsPolicy; connectionGate?: ConnectionGate },
  processor: Processor<z.infer<S>, R>,
) {
  return async (job: Job, token?: string, signal?: AbortSignal): Promise<R> => {
    const started = performance.now();
    const parsed = schema.safeParse(job.data);
    if (!parsed.success) {
      deps.metrics.jobDuration.observe({ queue, result: 'invalid' }, (performance.now() - started) / 1000);
      throw new UnrecoverableError(`invalid ${queue} payload: ${formatZodIssues(parsed.error).join('; ')}`);
    }
    const data = parsed.data as { connectionId?: string; entity?: string };
    const log = deps.logger.child({ queue, jobId: job.id, connection: data.connectionId, entity: data.entity, attempt: job.attemptsMade + 1 });
    let result = 'ok';
    const slotsPolicy = deps.jobSlots;
    const slot = slotsPolicy && data.connectionId && job.id && token !== undefined ? { connection: data.connectionId, id: job.id } : undefined;
    let renew: NodeJS.Timeout | undefined;
    try {
      // A paused connection's job is held back (DelayedError, no attempt used): jobs/connection-gate.ts.
      await deps.connectionGate?.admit({ queue, job, token, connectionId: data.connectionId, log });
      if (slot && slotsPolicy) {
        if (!(await slotsPolicy.slots.take(slot.connection, slot.id, slotsPolicy.max, slotsPolicy.leaseMs))) {
          result = 'deferred';
          deps.metrics.jobsDeferred.inc({ queue, reason: 'connection-slots' });
          const earliest = Date.now() + slotsPolicy.retryMs;
          const at = slotsPolicy.line
            ? await slotsPolicy.line.next(slot.connection, 'slots', earliest, SLOT_WAKE_SPACING_MS)
            : earliest + Math.floor(Math.random() * slotsPolicy.retryMs);
          await job.moveToDelayed(at, token);
          throw new DelayedError();
        }
        renew = setInterval(() => {
          slotsPolicy.slots.take(slot.connection, slot.id, Number.MAX_SAFE_INTEGER, slotsPolicy.leaseMs).catch(() => {});
        }, slotsPolicy.leaseMs / 3);
        renew.unref();
      }
      return await processor({ job, data: parsed.data, token, signal, log });
    } catch (err) {
      if (err instanceof DelayedError && result === 'deferred') throw err;
      if (err instanceof ParkedError && token !== undefined) {
        result = 'deferred';
        // A park (vendor day limit, outage, long Retry-After) is news; a wait for the next minute slot is routine.
        const routine = err.untilMs - Date.now() < 60_000;
        deps.metrics.jobsDeferred.inc({ queue, reason: routine ? 'quota' : 'park' });
        log[routine ? 'debug' : 'info'](
          { until: new Date(err.untilMs).toISOString(), why: err.message },
          'job delayed until the connection can call its vendor again',
        );
        // Spread so the delayed jobs of one connection do not all start in the same instant: background jobs
        // (backfill windows) waiting for the next vendor slot take their place in the connection's line;
        // others wake at the slot, with a little jitter.
        const background = (job.opts.priority ?? 0) >= PRIORITY.backfill;
        const line = deps.jobSlots?.line;
        const at =
          routine && background && line && err.spacingMs && data.connectionId
            ? await line.next(data.connectionId, 'quota', err.untilMs, err.spacingMs)
            : err.untilMs + Math.floor(Math.random() * (routine ? 250 : 1_000));
        await job.moveToDelayed(at, token);
        throw new DelayedError();
      }
      if (err instanceof RateLimitError || err instanceof DelayedError || err instanceof WaitingChildrenError) {
        result = 'deferred';
        throw err;
      }
      result = 'error';
      if (err instanceof SyncError && !err.retryable) {
        log.warn({ err: serializeError(err) }, 'job failed permanently');
        throw new UnrecoverableError(err.message);
      }
      log.warn({ err: serializeError(err) }, 'job attempt failed');
      throw err;
    } finally {
      if (renew) clearInterval(renew);
      if (slot && slotsPolicy && renew) await slotsPolicy.slots.release(slot.connection, slot.id).catch(() => {});
      deps.metrics.jobDuration.observe({ queue, result }, (performance.now() - started) / 1000);
    }
  };
}
