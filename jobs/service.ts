import type { Logger } from 'pino';
import type { AppConfig } from '../src/config.js';
import { startHttpServer } from '../src/observability/http-server.js';
import { queueUi } from '../src/observability/queue-ui.js';
import { evictionPolicy, resolveRedis } from '../src/redis.js';
import { QUEUES } from './catalog.js';
import { upsertReconcileSchedulers } from './reconcile.js';
import { createRuntime, type Runtime } from './runtime.js';
import { type Role, startWorkers, upsertSchedulers, type WorkerService } from './worker-service.js';

export interface Service {
  rt: Runtime;
  workers: WorkerService;
  httpUrl: string;
  stop(): Promise<void>;
}

const STATES = ['wait', 'prioritized', 'active', 'delayed', 'failed', 'completed', 'waiting-children'] as const;

/** Refreshes the gauges Prometheus reads: queue depths, quarantine sizes, Redis memory and policy. */
export function collector(rt: Runtime) {
  return async () => {
    for (const q of Object.values(rt.queues)) {
      const counts = await q.getJobCounts(...STATES);
      for (const s of STATES) rt.metrics.queueJobs.set({ queue: q.name, state: s }, counts[s] ?? 0);
    }
    for (const c of rt.config.connections) {
      rt.metrics.quarantineSize.set({ connection: c.id }, await rt.quarantine.count(c.id));
      for (const entity of c.entities) rt.metrics.pullInterval.set({ connection: c.id, entity }, c.schedule.everySeconds);
      const last = await rt.redis.hgetall(rt.keys.lastSuccess(c.id));
      for (const [entity, ms] of Object.entries(last)) rt.metrics.lastSuccess.set({ connection: c.id, entity }, Number(ms) / 1000);
    }
    const info = await rt.redis.info('memory');
    const used = Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
    const max = Number(/maxmemory:(\d+)/.exec(info)?.[1] ?? 0);
    rt.metrics.redisMemoryUsedRatio.set(max > 0 ? used / max : 0);
    rt.metrics.redisEvictionPolicyOk.set((await evictionPolicy(rt.redis)) === 'noeviction' ? 1 : 0);
  };
}

/** `erp-sync worker`: schedulers, workers of the chosen roles, and the HTTP server. */
export async function startService(config: AppConfig, logger: Logger, options: { roles: readonly Role[]; httpPort?: number }): Promise<Service> {
  const redis = await resolveRedis(config.redis.url);
  logger.info({ redis: redis.source }, 'redis resolved');
  const rt = await createRuntime(config, redis.url, logger);
  // The HTTP server listens first: a port in use (a ListenError) stops the process before it
  // schedules or takes any job, with nothing to wind down but its Redis connections.
  let workers: WorkerService | undefined;
  let http: Awaited<ReturnType<typeof startHttpServer>>;
  try {
    http = await startHttpServer({
      port: options.httpPort ?? config.http.port,
      host: config.http.host,
      registry: rt.metrics.registry,
      collect: collector(rt),
      extra: queueUi({ queues: Object.values(rt.queues), adminToken: config.http.adminToken }),
      ready: async () => {
        const checks: Record<string, { ok: boolean; detail?: string }> = {};
        try {
          await rt.redis.ping();
          checks.redis = { ok: true };
          const policy = await evictionPolicy(rt.redis);
          checks.evictionPolicy = { ok: policy === 'noeviction', detail: policy };
        } catch (e) {
          checks.redis = { ok: false, detail: (e as Error).message };
        }
        checks.workers = workers
          ? { ok: workers.workers.every((w) => w.isRunning()), detail: `${workers.workers.length} running` }
          : { ok: false, detail: 'starting' };
        return { ok: Object.values(checks).every((c) => c.ok), checks };
      },
    });
  } catch (e) {
    await rt.close();
    await redis.stop();
    throw e;
  }
  if (options.roles.includes('pull')) {
    const n = await upsertSchedulers(rt);
    logger.info({ schedulers: n }, 'job schedulers upserted');
  }
  if (options.roles.includes('reconcile')) await upsertReconcileSchedulers(rt);
  const started = startWorkers(rt, options.roles);
  workers = started;
  logger.info({ url: http.url, roles: options.roles, queues: Object.values(QUEUES) }, 'worker started');
  let stopped: Promise<void> | undefined;
  return {
    rt,
    workers: started,
    httpUrl: http.url,
    stop: () =>
      (stopped ??= (async () => {
        await started.stop();
        await http.close();
        await rt.close();
        await redis.stop();
      })()),
  };
}
