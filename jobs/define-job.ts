import { DelayedError, type Job, RateLimitError, UnrecoverableError, WaitingChildrenError } from 'bullmq';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { formatZodIssues, ParkedError, SyncError } from '../src/errors/index.js';
import { serializeError } from '../src/observability/logger.js';
import type { Metrics } from '../src/observability/metrics.js';
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
  deps: { logger: Logger; metrics: Metrics; connectionGate?: ConnectionGate },
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
    try {
      // A paused connection's job is held back (DelayedError, no attempt used): jobs/connection-gate.ts.
      await deps.connectionGate?.admit({ queue, job, token, connectionId: data.connectionId, log });
      return await processor({ job, data: parsed.data, token, signal, log });
    } catch (err) {
      if (err instanceof ParkedError && token !== undefined) {
        result = 'deferred';
        log.info({ until: new Date(err.untilMs).toISOString() }, 'connection parked; job delayed until the park ends');
        // A second of spread so the delayed jobs of one connection do not all start in the same instant.
        await job.moveToDelayed(err.untilMs + Math.floor(Math.random() * 1_000), token);
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
      deps.metrics.jobDuration.observe({ queue, result }, (performance.now() - started) / 1000);
    }
  };
}
