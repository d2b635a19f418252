import { MetricsTime, type Job, Worker } from 'bullmq';
import { maxStartedAttempts, QUEUES, type QueueName, type UpsertPayload } from './catalog.js';
import { backfillProcessor } from './backfill.js';
import { makeJobHelpers } from './job-helpers.js';
import { pullProcessor } from './pull.js';
import { reconcileProcessor } from './reconcile.js';
import type { Runtime } from './runtime.js';
import { upsertProcessor } from './upsert.js';

export type Role = 'pull' | 'upsert' | 'backfill' | 'reconcile';
export const ALL_ROLES: readonly Role[] = ['pull', 'upsert', 'backfill', 'reconcile'];

export interface WorkerService {
  workers: Worker[];
  /** Stops taking jobs, lets in-flight ones finish within the grace period, then aborts the rest. */
  stop(graceMs?: number): Promise<void>;
  /** Resolves once what the workers do after a job failed (its quarantine entry) is written. */
  settled(): Promise<void>;
}

/** Schedulers: one per (connection, entity), idempotent upsert — however many replicas start. */
export async function upsertSchedulers(rt: Pick<Runtime, 'config' | 'queues' | 'options'>): Promise<number> {
  let n = 0;
  for (const c of rt.config.connections) {
    for (const entity of c.entities) {
      await rt.queues.pull.upsertJobScheduler(
        `pull-${c.id}-${entity}`,
        { every: c.schedule.everySeconds * 1000 },
        { name: 'pull', data: { connectionId: c.id, entity }, opts: { priority: 1, ...rt.options.pull } },
      );
      n++;
    }
  }
  return n;
}

/**
 * Starts the workers of the requested roles. Timings: locks of `sync.lockDurationMs` (default 30 s)
 * renewed every half of it (HTTP-bound jobs never block the loop for long); every
 * `sync.stalledIntervalMs` a worker takes back jobs whose lock expired (a dead worker's), counted.
 */
export function startWorkers(
  rt: Runtime,
  roles: readonly Role[] = ALL_ROLES,
  processors: Partial<Record<Role, (job: Job, token?: string, signal?: AbortSignal) => Promise<unknown>>> = {},
): WorkerService {
  const helpers = makeJobHelpers(rt);
  const common = {
    metrics: { maxDataPoints: MetricsTime.ONE_WEEK },
    lockDuration: rt.config.sync.lockDurationMs,
    stalledInterval: rt.config.sync.stalledIntervalMs,
  } as const;
  const workers: Worker[] = [];
  // Writes made after a job failed (BullMQ's 'failed' event), still under way.
  const followUps = new Set<Promise<void>>();
  const make = (queue: QueueName, processor: (job: Job, token?: string, signal?: AbortSignal) => Promise<unknown>, opts: object) => {
    const w = new Worker(queue, processor, { ...rt.workerOptions(), ...common, ...opts });
    w.on('error', (err) => rt.logger.error({ err, queue }, 'worker error'));
    w.on('stalled', () => rt.metrics.jobsStalled.inc({ queue }));
    rt.metrics.workersRunning.inc({ queue });
    workers.push(w);
    return w;
  };

  if (roles.includes('pull')) make(QUEUES.pull, processors.pull ?? pullProcessor(helpers.pull), { concurrency: rt.config.sync.pullConcurrency });
  if (roles.includes('upsert')) {
    const attempts = rt.config.sync.attempts;
    // Every start counts: attempts, 429 round trips (RateLimitError), short waits for a record's lock, and
    // a credit note's waits for its invoices (DelayedError).
    const maxStarted = maxStartedAttempts(attempts);
    const w = make(QUEUES.upsert, processors.upsert ?? upsertProcessor(helpers.upsert), {
      concurrency: rt.config.sync.upsertConcurrency,
      // The billing rate limit, shared by every worker on this queue; also enables queue.rateLimit() for 429s.
      limiter: { max: rt.config.billing.rateLimit.max, duration: rt.config.billing.rateLimit.durationMs },
      // RateLimitError does not consume attempts; this bounds how long a 429 storm can keep a job alive.
      maxStartedAttempts: maxStarted,
    });
    // A job that used its last attempt on a retryable error is quarantined too, and so is one BullMQ
    // failed for starting too often (a 429 storm that never ends; BullMQ fails it with an
    // UnrecoverableError, which the processor never saw): nothing is dropped silently.
    w.on('failed', (job, err) => {
      if (!job) return;
      const data = job.data as UpsertPayload;
      const exhausted = job.attemptsMade >= (job.opts.attempts ?? 1) || job.attemptsStarted > maxStarted;
      const unrecoverable = err?.name === 'UnrecoverableError' && job.attemptsStarted <= maxStarted;
      if (exhausted && !unrecoverable) {
        const written = rt.quarantine
          .put({
            connection: data.connectionId,
            entity: data.entity,
            erpId: data.erpId,
            version: data.version,
            reason: 'RETRIES_EXHAUSTED',
            message: err.message,
            stage: 'upsert',
            at: Date.now(),
            attempts: job.attemptsMade,
            payload: data,
          })
          .then(() => rt.metrics.recordsQuarantined.inc({ connection: data.connectionId, entity: data.entity, reason: 'RETRIES_EXHAUSTED' }))
          .catch((e) => rt.logger.error({ err: e }, 'could not quarantine an exhausted job'));
        followUps.add(written);
        void written.finally(() => followUps.delete(written));
      }
    });
  }
  if (roles.includes('backfill')) make(QUEUES.backfill, processors.backfill ?? backfillProcessor(helpers.backfill), { concurrency: 2 });
  if (roles.includes('reconcile')) make(QUEUES.reconcile, processors.reconcile ?? reconcileProcessor(helpers.reconcile), { concurrency: 1 });

  let stopping: Promise<void> | undefined;
  return {
    workers,
    settled: async () => void (await Promise.allSettled([...followUps])),
    stop: (graceMs = rt.config.sync.graceSeconds * 1000) => {
      // worker.close() has no timeout and a second close(true) does not force it: abort in-flight jobs
      // through their AbortSignal when the grace period ends, then wait for the pending close.
      stopping ??= (async () => {
        const timer = setTimeout(() => {
          rt.logger.warn({ graceMs }, 'grace period over: cancelling in-flight jobs');
          for (const w of workers) w.cancelAllJobs('shutdown');
        }, graceMs);
        await Promise.allSettled(workers.map((w) => w.close()));
        clearTimeout(timer);
        for (const w of workers) rt.metrics.workersRunning.dec({ queue: w.name });
      })();
      return stopping;
    },
  };
}
