import { MetricsTime, Worker } from 'bullmq';
import { distinctBillingKeys } from '../src/billing/billing-target.js';
import type { EntityName } from '../src/connector/entities.js';
import { maxStartedAttempts, PRIORITY, QUEUES, type QueueName } from '../jobs/catalog.js';
import { backfillProcessor } from '../jobs/backfill/backfill-processor.js';
import { admit, type JobProcessor, wrappingSteps } from '../jobs/admission/admission.js';
import { startBillingProbe } from '../jobs/admission/billing-outage.js';
import { accountForFailedUpsert } from '../jobs/upsert/failed-upsert.js';
import { type JobHelpers, makeJobHelpers } from './job-helpers.js';
import { pullProcessor } from '../jobs/pull/pull-processor.js';
import { reconcileProcessor } from '../jobs/reconcile/reconcile-processor.js';
import { sweepProcessor } from '../jobs/sweep/sweep-processor.js';
import type { Runtime } from '../jobs/runtime.js';
import { upsertQueueProcessor } from '../jobs/upsert/upsert-batch-processor.js';

export type Role = 'pull' | 'upsert' | 'backfill' | 'reconcile';
export const ALL_ROLES: readonly Role[] = ['pull', 'upsert', 'backfill', 'reconcile'];

export interface WorkerService {
  workers: Worker[];
  /** Stops taking jobs, lets in-flight ones finish within the grace period, then aborts the rest. */
  stop(graceMs?: number): Promise<void>;
  /** The queues whose worker stop() still waits for (its close has not settled), e.g. `upsert worker`. */
  unsettled(): string[];
  /**
   * Gives up on closing: forces each worker closed and drops its Redis connections, without waiting. For
   * a stop that reached its deadline (cli/wait-for-shutdown.ts); the jobs it held are taken back by the
   * next worker's stalled-job check once their locks expire.
   */
  abandon(): void;
  /** Resolves once what the workers do after a job failed (its quarantine entry) is written. */
  settled(): Promise<void>;
  /** Resolves when no job is being processed by any of the workers (at once if none is). */
  idle(): Promise<void>;
}

/** The id of the pull scheduler of (connection, entity). */
export const pullSchedulerId = (connectionId: string, entity: string): string => `pull-${connectionId}-${entity}`;

/** The id of the deletes sweep's scheduler of (connection, entity), in the pull queue. */
export const deletesSchedulerId = (connectionId: string, entity: string): string => `deletes-${connectionId}-${entity}`;

/** `schedule.deletesEverySeconds` when unset: hourly (one listing of every id per stream). */
export const DELETES_EVERY_SECONDS = 3600;

/** The deletes sweeps a config asks for: streams of vendors whose deletes leave no trace, unless turned off. */
export function wantedDeletesSweeps(
  rt: Pick<Runtime, 'config' | 'connection'>,
): Array<{ connectionId: string; entity: EntityName; everySeconds: number }> {
  return rt.config.connections.flatMap((c) => {
    const everySeconds = c.schedule.deletesEverySeconds ?? DELETES_EVERY_SECONDS;
    const { connector } = rt.connection(c.id);
    if (!connector.sweepsDeletes || everySeconds === 0) return [];
    return c.entities
      .filter((entity) => connector.streams[entity].listIds)
      .map((entity) => ({ connectionId: c.id, entity, everySeconds }));
  });
}

/**
 * Schedulers: one pull per (connection, entity), and a deletes sweep per stream that needs one
 * (jobs/pull/sweep-deletes.ts); idempotent upserts — however many replicas start.
 */
export async function upsertSchedulers(
  rt: Pick<Runtime, 'config' | 'queues' | 'options' | 'connection'>,
): Promise<number> {
  let n = 0;
  for (const c of rt.config.connections) {
    for (const entity of c.entities) {
      await rt.queues.pull.upsertJobScheduler(
        pullSchedulerId(c.id, entity),
        { every: c.schedule.everySeconds * 1000 },
        { name: 'pull', data: { connectionId: c.id, entity }, opts: { priority: 1, ...rt.options.pull } },
      );
      n++;
    }
  }
  for (const s of wantedDeletesSweeps(rt)) {
    await rt.queues.pull.upsertJobScheduler(
      deletesSchedulerId(s.connectionId, s.entity),
      { every: s.everySeconds * 1000 },
      {
        name: 'pull',
        data: { connectionId: s.connectionId, entity: s.entity, deletes: true },
        // After the incremental pulls, before backfill windows: it reads history, not changes.
        opts: { priority: PRIORITY.history, ...rt.options.pull },
      },
    );
    n++;
  }
  return n;
}

/** The in-flight sweep (jobs/sweep/sweep-processor.ts), scheduled once however many replicas start. */
export async function upsertSweepScheduler(rt: Pick<Runtime, 'config' | 'queues'>): Promise<void> {
  await rt.queues.sweep.upsertJobScheduler(
    'sweep',
    { every: rt.config.sync.sweepEverySeconds * 1000 },
    { name: 'sweep', data: {} },
  );
}

/**
 * Starts the workers of the requested roles (the upsert role also runs the in-flight sweep). Timings: locks of `sync.lockDurationMs` (default 30 s)
 * renewed every half of it (HTTP-bound jobs never block the loop for long); every
 * `sync.stalledIntervalMs` a worker takes back jobs whose lock expired (a dead worker's), counted.
 * Each worker's processor is its job behind the admission jobs/catalog.ts lists for it (ADMISSION:
 * scheduled jobs of a connection a reload removed skipped, run records, the billing-company guard, the
 * connection gate and slots); a processor given in `processors` takes the job's place behind the same steps.
 */
export function startWorkers(
  rt: Runtime,
  roles: readonly Role[] = ALL_ROLES,
  processors: Partial<Record<Role | 'sweep', JobProcessor>> = {},
): WorkerService {
  const helpers = makeJobHelpers(rt);
  const pool = workerPool(rt);
  // Writes made after a job failed (BullMQ's 'failed' event), still under way.
  const followUps = new Set<Promise<void>>();
  let probe: BillingProbe | undefined;
  // Every worker's processor behind its admission, as jobs/catalog.ts lists it (jobs/admission/admission.ts).
  const steps = wrappingSteps(rt, helpers.billingCompany);
  const admitted = (queue: QueueName, own: JobProcessor | undefined, job: () => JobProcessor) =>
    admit(queue, steps, own ?? job());
  if (roles.includes('pull'))
    pool.make(
      QUEUES.pull,
      admitted(QUEUES.pull, processors.pull, () => pullProcessor(helpers.pull)),
      { concurrency: rt.config.sync.pullConcurrency },
    );
  if (roles.includes('upsert')) {
    const upsert = admitted(QUEUES.upsert, processors.upsert, () => upsertQueueProcessor(helpers.upsert));
    const sweep = admitted(QUEUES.sweep, processors.sweep, () => sweepProcessor(helpers.sweep));
    probe = startUpsertWorkers(rt, pool, helpers, { upsert, sweep }, followUps);
  }
  if (roles.includes('backfill'))
    pool.make(
      QUEUES.backfill,
      admitted(QUEUES.backfill, processors.backfill, () => backfillProcessor(helpers.backfill)),
      { concurrency: 2 },
    );
  if (roles.includes('reconcile'))
    pool.make(
      QUEUES.reconcile,
      admitted(QUEUES.reconcile, processors.reconcile, () => reconcileProcessor(helpers.reconcile)),
      { concurrency: 1 },
    );
  return workerService(rt, pool, followUps, probe);
}

type BillingProbe = ReturnType<typeof startBillingProbe>;

/** The process's workers: each on its own connection, with the common timings, its errors logged and its stalls counted. */
function workerPool(rt: Runtime) {
  const common = {
    metrics: { maxDataPoints: MetricsTime.ONE_WEEK },
    lockDuration: rt.config.sync.lockDurationMs,
    stalledInterval: rt.config.sync.stalledIntervalMs,
    maxStalledCount: rt.config.sync.maxStalledCount,
  } as const;
  const workers: Worker[] = [];
  const active = activeJobs();
  const make = (queue: QueueName, processor: JobProcessor, opts: object) => {
    const w = new Worker(queue, active.counting(processor), { ...rt.workerOptions(queue), ...common, ...opts });
    w.on(
      'error',
      (err) => rt.redisOutage.error(`${queue} worker`, err) || rt.logger.error({ err, queue }, 'worker error'),
    );
    w.on('stalled', () => rt.metrics.jobsStalled.inc({ queue }));
    rt.metrics.workersRunning.inc({ queue });
    workers.push(w);
    return w;
  };
  return { workers, make, idle: active.idle };
}

/**
 * The jobs this process's workers are processing now: what a stop would have to hand back. Counted
 * around each processor, so a stop with Redis gone knows without Redis whether anything is in flight.
 */
function activeJobs() {
  let n = 0;
  const waiters: Array<() => void> = [];
  return {
    counting:
      (processor: JobProcessor): JobProcessor =>
      async (job, token, signal) => {
        n++;
        try {
          return await processor(job, token, signal);
        } finally {
          if (--n === 0) for (const resolve of waiters.splice(0)) resolve();
        }
      },
    idle: (): Promise<void> => (n === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve))),
  };
}

/** The upsert worker, the accounting of its failed jobs, the in-flight sweep and the billing probe. */
function startUpsertWorkers(
  rt: Runtime,
  pool: ReturnType<typeof workerPool>,
  helpers: JobHelpers,
  processors: { upsert: JobProcessor; sweep: JobProcessor },
  followUps: Set<Promise<void>>,
): BillingProbe {
  const attempts = rt.config.sync.attempts;
  const rateLimit = rt.config.billing.rateLimit;
  // Every start counts: attempts, 429 round trips (RateLimitError), short waits for a record's lock, a
  // credit note's waits for its invoices and, per key, waits for the key's slot (DelayedError).
  const maxStarted = maxStartedAttempts(attempts, rateLimit.scope);
  const w = pool.make(QUEUES.upsert, processors.upsert, {
    concurrency: rt.config.sync.upsertConcurrency,
    // The billing rate limit, shared by every worker on this queue; also enables queue.rateLimit() for 429s.
    // Per key, each key's budget is kept by the job itself and this bounds the keys together.
    limiter: {
      max:
        rateLimit.scope === 'key'
          ? (rateLimit.totalMax ?? rateLimit.max * distinctBillingKeys(rt.config))
          : rateLimit.max,
      duration: rateLimit.durationMs,
    },
    // RateLimitError does not consume attempts; this bounds how long a 429 storm can keep a job alive.
    maxStartedAttempts: maxStarted,
  });
  // Every way an upsert job ends failed leaves its record quarantined with a reason and the failed job
  // removed (jobs/upsert/failed-upsert.ts): its last attempt spent, its start budget spent (a 429 storm that
  // never ends, failed by BullMQ with an error the processor never saw), an invalid payload, or a
  // refusal the processor already quarantined. 'failed' fires for every failed attempt: only a job
  // that is in the failed set now has ended. A job BullMQ fails in its stalled-job check fires no
  // 'failed' here at all: the sweep below finds it.
  w.on('failed', (job, err) => {
    if (!job) return;
    const written = (async () => {
      if ((await job.getState()) !== 'failed') return;
      await accountForFailedUpsert(helpers.failedUpsert, job, err?.message);
    })().catch((e: unknown) =>
      rt.logger.error({ err: e, jobId: job.id }, 'could not account for a failed upsert job; the sweep will'),
    );
    followUps.add(written);
    void written.finally(() => followUps.delete(written));
  });
  pool.make(QUEUES.sweep, processors.sweep, { concurrency: 1 });
  return startBillingProbe(helpers.billingOutage);
}

function workerService(
  rt: Runtime,
  { workers, idle }: Pick<ReturnType<typeof workerPool>, 'workers' | 'idle'>,
  followUps: Set<Promise<void>>,
  probe: BillingProbe | undefined,
): WorkerService {
  let stopping: Promise<void> | undefined;
  const closed = new Set<Worker>();
  return {
    workers,
    idle,
    settled: async () => void (await Promise.allSettled([...followUps])),
    stop: (graceMs = rt.config.sync.graceSeconds * 1000) => {
      // worker.close() has no timeout and a second close(true) does not force it: abort in-flight jobs
      // through their AbortSignal when the grace period ends, then wait for the pending close. Without
      // Redis that close may never settle (it waits on commands queued for a reconnect): the caller
      // bounds the wait and abandons it (abandon()).
      stopping ??= (async () => {
        probe?.stop();
        const timer = setTimeout(() => {
          rt.logger.warn({ graceMs }, 'grace period over: cancelling in-flight jobs');
          for (const w of workers) w.cancelAllJobs('shutdown');
        }, graceMs);
        await Promise.allSettled(workers.map((w) => w.close().finally(() => closed.add(w))));
        clearTimeout(timer);
        for (const w of workers) rt.metrics.workersRunning.dec({ queue: w.name });
      })();
      return stopping;
    },
    unsettled: () => (stopping ? workers.filter((w) => !closed.has(w)).map((w) => `${w.name} worker`) : []),
    abandon: () => {
      probe?.stop();
      for (const w of workers) {
        if (closed.has(w)) continue;
        w.cancelAllJobs('shutdown');
        w.close(true).catch(() => {});
        w.disconnect().catch(() => {});
      }
    },
  };
}
