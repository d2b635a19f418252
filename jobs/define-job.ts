import { DelayedError, type Job, RateLimitError, UnrecoverableError, WaitingChildrenError } from 'bullmq';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { formatZodIssues, ParkedError, SyncError } from '../src/errors/index.js';
import { serializeError } from '../src/observability/logger.js';
import type { Metrics } from '../src/observability/metrics.js';
import { LeaseKeeper } from '../src/pipeline/lease-keeper.js';
import { deferralOfPark } from '../src/waits/vendor-waits.js';
import { inJobAdmission } from './admission/admission.js';
import { PRIORITY } from './catalog.js';
import type { ConnectionGate } from './admission/connection-gate.js';
import type { ConnectionSlotsPolicy } from './admission/connection-slots-policy.js';
import { type DeferralCount, defer } from './admission/defer.js';

/** How far apart a connection's jobs waiting for one of its job slots wake up. */
const SLOT_WAKE_SPACING_MS = 50;

/** What a processor gets: its job and payload, a logger bound to it, and the process's lease keeper (for the leases it takes). */
export type Processor<P, R> = (ctx: {
  job: Job;
  data: P;
  token?: string;
  signal?: AbortSignal;
  log: Logger;
  leases: LeaseKeeper;
}) => Promise<R>;

/**
 * The wrapper every processor goes through:
 * - the payload is parsed with its schema; an invalid payload fails at once (UnrecoverableError);
 * - one child logger per job, bound to connection, entity and job id;
 * - a duration histogram by queue and result;
 * - classification in ONE place: a non-retryable SyncError becomes UnrecoverableError (no attempts
 *   wasted); BullMQ's control-flow errors (RateLimitError, DelayedError, WaitingChildrenError) pass;
 * - a parked connection (ParkedError: vendor quota spent or a long vendor wait, decided in
 *   src/waits/vendor-waits.ts) delays the job until the park ends, without using an attempt, so the
 *   worker slot serves other connections meanwhile. This is the only place a park becomes a delay.
 * - the in-job steps of the queue's admission (jobs/admission/admission.ts), in the catalog's order, once the payload
 *   is parsed: the connection gate, then the connection slot, a lease renewed by the process's lease
 *   keeper while the job runs.
 */
export function defineJob<S extends z.ZodTypeAny, R>(
  queue: string,
  schema: S,
  deps: JobDeps,
  processor: Processor<z.infer<S>, R>,
) {
  // The process's keeper (job helpers pass it); a processor built alone gets one of its own.
  const leases = deps.leases ?? new LeaseKeeper(deps);
  const count = { metrics: deps.metrics, queue };
  // The steps of the queue's admission that need its payload (jobs/catalog.ts), as far as `deps` provide them.
  const inJob = inJobAdmission(queue);
  return async (job: Job, token?: string, signal?: AbortSignal): Promise<R> => {
    const started = performance.now();
    const parsed = schema.safeParse(job.data);
    if (!parsed.success) {
      deps.metrics.jobDuration.observe({ queue, result: 'invalid' }, (performance.now() - started) / 1000);
      throw new UnrecoverableError(`invalid ${queue} payload: ${formatZodIssues(parsed.error).join('; ')}`);
    }
    const data = parsed.data as { connectionId?: string; entity?: string };
    const log = deps.logger.child({
      queue,
      jobId: job.id,
      connection: data.connectionId,
      entity: data.entity,
      attempt: job.attemptsMade + 1,
    });
    const run: JobRun = { job, token, connectionId: data.connectionId, log, count, result: 'ok' };
    const slotsPolicy = deps.jobSlots;
    const slot =
      slotsPolicy && data.connectionId && job.id && token !== undefined
        ? { connection: data.connectionId, id: job.id }
        : undefined;
    let untrackSlot: (() => void) | undefined;
    try {
      for (const step of inJob) {
        // A paused connection's job is held back (DelayedError, no attempt used): jobs/admission/connection-gate.ts.
        if (step === 'gate')
          await deps.connectionGate?.admit({ queue, job, token, connectionId: data.connectionId, log });
        if (step === 'slots' && slot && slotsPolicy)
          untrackSlot = await takeConnectionSlot(run, slotsPolicy, slot, leases);
      }
      return await processor({ job, data: parsed.data, token, signal, log, leases });
    } catch (err) {
      return await failedJob(run, deps, err);
    } finally {
      if (untrackSlot) {
        untrackSlot();
        // Not released (Redis away): the slot's lease expires on its own within `leaseMs`.
        await slotsPolicy!.slots
          .release(slot!.connection, slot!.id)
          .catch((err: unknown) => log.warn({ err: serializeError(err) }, 'could not release the connection slot'));
      }
      deps.metrics.jobDuration.observe({ queue, result: run.result }, (performance.now() - started) / 1000);
    }
  };
}

type JobDeps = {
  logger: Logger;
  metrics: Metrics;
  jobSlots?: ConnectionSlotsPolicy;
  connectionGate?: ConnectionGate;
  leases?: LeaseKeeper;
};

/** One job's run, as the wrapper's steps see it; `result` labels the duration histogram. */
interface JobRun {
  job: Job;
  token?: string;
  connectionId?: string;
  log: Logger;
  count: DeferralCount;
  result: 'ok' | 'deferred' | 'error';
}

/**
 * The connection's job slot, renewed by the lease keeper while the job runs (returns the untrack).
 * All taken: the job goes back to the queue (DelayedError) without using an attempt.
 */
async function takeConnectionSlot(
  run: JobRun,
  policy: ConnectionSlotsPolicy,
  slot: { connection: string; id: string },
  leases: LeaseKeeper,
): Promise<() => void> {
  if (!(await policy.slots.take(slot.connection, slot.id, policy.max + announcedExtra(run.job), policy.leaseMs))) {
    run.result = 'deferred';
    const line = policy.line && {
      wakeLine: policy.line,
      connection: slot.connection,
      lane: 'slots' as const,
      spacingMs: SLOT_WAKE_SPACING_MS,
    };
    return await defer(
      run.job,
      run.token,
      { reason: 'connection-slots', at: Date.now() + policy.retryMs, jitterMs: policy.retryMs, line },
      run.count,
    );
  }
  return leases.track({
    kind: 'job-slot',
    owner: `job-${slot.id}`,
    ttlMs: policy.leaseMs,
    // Taken again by its holder: always granted (no limit), the lease's expiry pushed back.
    renew: () => policy.slots.take(slot.connection, slot.id, Number.MAX_SAFE_INTEGER, policy.leaseMs),
  });
}

/**
 * A read of records a webhook announced (jobs/pull/read-announced.ts) may take one slot beyond the
 * connection's max: it is one short read by id that someone waits for, and must not wait behind history
 * (a first sync, backfill windows) holding every slot of the connection for as long as that lasts.
 */
function announcedExtra(job: Job): number {
  return (job.data as { webhook?: unknown } | undefined)?.webhook ? 1 : 0;
}

/** What a job's error becomes: a park a delay, BullMQ's control flow passed on, a refusal unrecoverable. */
async function failedJob(run: JobRun, deps: JobDeps, err: unknown): Promise<never> {
  const { token, log } = run;
  if (err instanceof DelayedError && run.result === 'deferred') throw err;
  if (err instanceof ParkedError && token !== undefined) {
    run.result = 'deferred';
    return await deferParked(run, deps, err);
  }
  if (err instanceof RateLimitError || err instanceof DelayedError || err instanceof WaitingChildrenError) {
    run.result = 'deferred';
    throw err;
  }
  run.result = 'error';
  if (err instanceof SyncError && !err.retryable) {
    log.warn({ err: serializeError(err) }, 'job failed permanently');
    throw new UnrecoverableError(err.message);
  }
  log.warn({ err: serializeError(err) }, 'job attempt failed');
  throw err;
}

async function deferParked(
  { job, token, connectionId, log, count }: JobRun,
  deps: JobDeps,
  err: ParkedError,
): Promise<never> {
  // A park (vendor day limit, outage, long Retry-After) is news; a wait for the next minute slot is routine.
  const { reason, jitterMs } = deferralOfPark(err.untilMs, Date.now());
  const routine = reason === 'quota';
  log[routine ? 'debug' : 'info'](
    { until: new Date(err.untilMs).toISOString(), why: err.message },
    'job delayed until the connection can call its vendor again',
  );
  // Spread so the delayed jobs of one connection do not all start in the same instant: background jobs
  // (backfill windows) waiting for the next vendor slot take their place in the connection's line;
  // others wake at the slot, with a little jitter.
  const background = (job.opts.priority ?? 0) >= PRIORITY.backfill;
  const wakeLine = deps.jobSlots?.line;
  const line =
    routine && background && wakeLine && err.spacingMs && connectionId
      ? { wakeLine, connection: connectionId, lane: 'quota' as const, spacingMs: err.spacingMs }
      : undefined;
  return await defer(job, token, { reason, at: err.untilMs, jitterMs, line }, count);
}
