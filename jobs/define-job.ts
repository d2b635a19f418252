import { DelayedError, type Job, RateLimitError, UnrecoverableError, WaitingChildrenError } from 'bullmq';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { formatZodIssues, SyncError } from '../src/errors/index.js';
import { serializeError } from '../src/observability/logger.js';
import type { Metrics } from '../src/observability/metrics.js';

export type Processor<P, R> = (ctx: { job: Job; data: P; token?: string; signal?: AbortSignal; log: Logger }) => Promise<R>;

/**
 * The wrapper every processor goes through:
 * - the payload is parsed with its schema; an invalid payload fails at once (UnrecoverableError);
 * - one child logger per job, bound to connection, entity and job id;
 * - a duration histogram by queue and result;
 * - classification in ONE place: a non-retryable SyncError becomes UnrecoverableError (no attempts
 *   wasted); BullMQ's control-flow errors (RateLimitError, DelayedError, WaitingChildrenError) pass.
 */
export function defineJob<S extends z.ZodTypeAny, R>(
  queue: string,
  schema: S,
  deps: { logger: Logger; metrics: Metrics },
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
      return await processor({ job, data: parsed.data, token, signal, log });
    } catch (err) {
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
