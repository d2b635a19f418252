import express from 'express';
import { documentRoutesOf } from './document-routes.js';
import type { Logger } from 'pino';
import type { AppConfig } from '../src/config.js';
import { credentialsStatus } from '../src/auth/credentials-status.js';
import { TOKEN_KEY_ENV } from '../src/auth/token-sealer.js';
import { dropUnconfiguredSeries } from '../src/observability/drop-unconfigured-series.js';
import { type HttpServerOptions, startHttpServer } from '../src/observability/http-server.js';
import { queueUi } from '../src/observability/queue-ui.js';
import { withApi } from '../api/index.js';
import { withConsole } from '../console/console-app.js';
import { credentialGuardOf } from '../src/http/credential-guard.js';
import { within } from '../src/observability/within.js';
import { BILLING } from '../jobs/admission/billing-outage.js';
import { logConnectionChecks } from './log-connection-checks.js';
import { idleWithoutRedis } from './idle-without-redis.js';
import { QUEUES } from '../jobs/catalog.js';
import { upsertReconcileSchedulers } from '../jobs/reconcile/reconcile-processor.js';
import { applyConfig, type ReloadOutcome, reloadConfig } from './reload-config.js';
import { type StoredConnectionsWatch, watchStoredConnections } from './stored-connections-watch.js';
import { withStoredConnections } from './with-stored-connections.js';
import { openRuntime } from './create-runtime.js';
import { startWebhookIngress } from './webhook-ingress.js';
import { withAgentIngress } from './agent-ingress.js';
import { isAgentConnection } from '../connectors/tally/streams/agent-mode.js';
import type { Runtime } from '../jobs/runtime.js';
import { REVIEW_RULES } from '../jobs/upsert/review-rule.js';
import {
  type Role,
  startWorkers,
  upsertSchedulers,
  upsertSweepScheduler,
  type WorkerService,
} from './worker-service.js';

export interface Service {
  rt: Runtime;
  workers: WorkerService;
  httpUrl: string;
  /**
   * Re-reads the config with `load` and applies what can change while running (app/reload-config.ts):
   * the `erp-sync worker` command calls it on SIGHUP. One reload at a time; never rejects.
   */
  reload(load: () => Promise<AppConfig>): Promise<ReloadOutcome>;
  /**
   * Winds down: the connection checks and a reload under way, the workers (in-flight jobs get
   * `sync.graceSeconds`), the HTTP server, the Redis connections, in that order. Without Redis it may
   * never settle: the caller bounds it (cli/wait-for-shutdown.ts) and then calls abandon().
   */
  stop(): Promise<void>;
  /** What stop() is still waiting for, and what it has not reached yet, by name (empty once settled). */
  unsettled(): string[];
  /** Gives up on stop(): forces the workers closed, drops every Redis connection, closes the HTTP server. Never waits. */
  abandon(): void;
}

const STATES = ['wait', 'prioritized', 'active', 'delayed', 'failed', 'completed', 'waiting-children'] as const;

/** Refreshes the gauges Prometheus reads: queue depths, quarantine sizes, paused connections, refused credentials, Redis memory and policy. */
export function collector(
  rt: Pick<
    Runtime,
    | 'queues'
    | 'config'
    | 'metrics'
    | 'quarantine'
    | 'review'
    | 'syncStatus'
    | 'health'
    | 'inFlight'
    | 'outages'
    | 'connectionControl'
    | 'tokens'
    | 'connection'
    | 'quotas'
    | 'webhookHealth'
    | 'agentInbox'
  >,
) {
  return async () => {
    for (const q of Object.values(rt.queues)) {
      const counts = await q.getJobCounts(...STATES);
      for (const s of STATES) rt.metrics.queueJobs.set({ queue: q.name, state: s }, counts[s] ?? 0);
    }
    for (const c of rt.config.connections) {
      rt.metrics.quarantineSize.set({ connection: c.id }, await rt.quarantine.count(c.id));
      // Records held for review: series for a connection with a review (or still holding records after a
      // reload turned it off); none for one that never had any.
      const held = await rt.review.countByRule(c.id);
      const reviewed = c.review !== 'none' || Object.keys(held).length > 0;
      for (const rule of REVIEW_RULES)
        if (reviewed) rt.metrics.recordsHeld.set({ connection: c.id, rule }, held[rule] ?? 0);
        else rt.metrics.recordsHeld.remove({ connection: c.id, rule });
      rt.metrics.inFlightRecords.set({ connection: c.id }, await rt.inFlight.count(c.id));
      rt.metrics.vendorUp.set({ connection: c.id }, (await rt.outages.get(c.id)) ? 0 : 1);
      rt.metrics.connectionPaused.set(
        { connection: c.id },
        (await rt.connectionControl.state(c.id)).state === 'paused' ? 1 : 0,
      );
      // From the token store, so every replica reports what any of them met: a refusal stays until a refresh works or a new token replaces it.
      rt.metrics.connectionCredentialsOk.set(
        { connection: c.id },
        (await credentialsStatus(rt.tokens, rt.connection(c.id))).ok ? 1 : 0,
      );
      // While webhooks carry the changes, the pull is a safety net on its long schedule (staleness alerts count in it).
      const every =
        c.webhooks && (await rt.webhookHealth.read(c.id)).healthy
          ? c.schedule.withWebhooksEverySeconds
          : c.schedule.everySeconds;
      for (const entity of c.entities) rt.metrics.pullInterval.set({ connection: c.id, entity }, every);
      const used = await rt.quotas.usage(c.id);
      rt.metrics.vendorQuotaUsed.set({ connection: c.id, window: 'minute' }, used.minute);
      rt.metrics.vendorQuotaUsed.set({ connection: c.id, window: 'day' }, used.day);
      const month = rt.connection(c.id).connector.quotaProfile?.appMonthlyBudget?.(c.settings);
      if (month)
        rt.metrics.vendorQuotaUsed.set({ app: month.app, window: 'month' }, await rt.quotas.monthUsage(month.app));
      if (isAgentConnection(c)) {
        const contact = await rt.agentInbox.contact(c.id);
        const age = contact?.lastContactAt ? (Date.now() - Date.parse(contact.lastContactAt)) / 1000 : Infinity;
        rt.metrics.agentLastContactAge.set({ connection: c.id }, age);
        rt.metrics.agentBacklog.set({ connection: c.id }, contact?.backlog ?? 0);
      }
      const { lastSuccess } = await rt.syncStatus.read(c.id);
      for (const [entity, ms] of Object.entries(lastSuccess))
        rt.metrics.lastSuccess.set({ connection: c.id, entity }, ms / 1000);
    }
    const billingOutage = await rt.outages.get(BILLING);
    rt.metrics.billingUp.set(billingOutage ? 0 : 1);
    rt.metrics.billingDownSince.set(billingOutage ? billingOutage.since / 1000 : 0);
    // Connections (or entities) a config reload removed: their gauges go, not freeze at their last values.
    await dropUnconfiguredSeries(rt.metrics, rt.config.connections);
    const memory = await rt.health.memory();
    rt.metrics.redisMemoryUsedRatio.set(memory.usedRatio);
    rt.metrics.redisMaxmemoryBytes.set(memory.maxmemory);
    rt.metrics.redisEvictionPolicyOk.set((await rt.health.evictionPolicy()) === 'noeviction' ? 1 : 0);
  };
}

type Check = { ok: boolean; detail?: string };

/**
 * How long /readyz waits for Redis (PING, the eviction policy, the billing outage flag) in all: half of
 * Kubernetes' default probe timeout (1 s). A command to a Redis that does not answer would otherwise wait
 * for the client's reconnects.
 */
export const READY_REDIS_TIMEOUT_MS = 500;

/** /readyz's view of Redis: it answers, will not evict our keys, and whether billing is marked down. */
async function redisChecks(rt: Pick<Runtime, 'redis' | 'health' | 'outages'>): Promise<Record<string, Check>> {
  // A client that is not connected (Redis stopped, reconnecting) would queue the PING until it is: say so at once.
  if (rt.redis.status !== 'ready')
    return { redis: { ok: false, detail: `Redis: not connected (client ${rt.redis.status})` } };
  try {
    const [policy, billingOutage] = await within(
      READY_REDIS_TIMEOUT_MS,
      'Redis',
      (async () => {
        await rt.health.ping();
        return [await rt.health.evictionPolicy(), await rt.outages.get(BILLING)] as const;
      })(),
    );
    return {
      redis: { ok: true },
      evictionPolicy: { ok: policy === 'noeviction', detail: policy },
      // Billing down = upserts paused: this worker cannot do its job until billing answers again.
      billing: billingOutage
        ? { ok: false, detail: `down since ${new Date(billingOutage.since).toISOString()}: ${billingOutage.message}` }
        : { ok: true },
    };
  } catch (e) {
    // The connection dropped while the checks ran (the client then fails the queued commands with its own
    // retry-limit error): say what the client is doing, as above, rather than that error's text.
    if (rt.redis.status !== 'ready')
      return { redis: { ok: false, detail: `Redis: not connected (client ${rt.redis.status})` } };
    return { redis: { ok: false, detail: (e as Error).message } };
  }
}

/** `erp-sync worker`: schedulers, workers of the chosen roles, and the HTTP server. */
export async function startService(
  config: AppConfig,
  logger: Logger,
  options: { roles: readonly Role[]; httpPort?: number },
): Promise<Service> {
  const rt = await openRuntime(config, logger);
  const version = await withStoredAtStart(rt, config);
  // The HTTP server listens first: a port in use (a ListenError) stops the process before it
  // schedules or takes any job, with nothing to wind down but its Redis connections.
  let workers: WorkerService | undefined;
  const listeners = await startListeners(rt, config, options.httpPort ?? config.http.port, () => workers);
  workers = await startRoles(rt, options.roles);
  announceStart(rt, listeners.url, options.roles);
  // The connections' checks (`erp-sync check`), logged once at start: a failure is a warning, never a failed start.
  const checking = new AbortController();
  const checked = logConnectionChecks(rt, logger, checking.signal);
  return runningService(rt, { roles: options.roles, workers, listeners, checking, checked, config, version });
}

/** The connections stored in Redis join the YAML's before any scheduler starts; the store's version they were read at. */
async function withStoredAtStart(rt: Runtime, config: AppConfig): Promise<number> {
  try {
    const version = await rt.storedConnections.version();
    const merged = await withStoredConnections(rt, config);
    if (merged !== config) await applyConfig(rt, [], merged, 'stored connections applied');
    return version;
  } catch (e) {
    await rt.close();
    throw e;
  }
}

/**
 * The connections a worker runs: the YAML's (as last loaded) and the ones stored in Redis, applied again
 * at each reload and each change of the store (watched within a second). One application at a time.
 */
function connectionSources(rt: Runtime, roles: readonly Role[], config: AppConfig, version: number) {
  let yaml = config.connections;
  let applying: Promise<unknown> = Promise.resolve();
  const serial = <T>(f: () => Promise<T>): Promise<T> => {
    const p = applying.then(f);
    applying = p.catch(() => {});
    return p;
  };
  const watch: StoredConnectionsWatch = watchStoredConnections(
    rt,
    () =>
      serial(async () => {
        const next = await withStoredConnections(rt, { ...rt.config, connections: yaml });
        const { errors, ...plan } = await applyConfig(rt, roles, next, 'stored connections applied');
        if (errors.length)
          rt.logger.error({ ...plan, errors }, 'stored connections: the job schedulers could not be updated');
      }),
    { version },
  );
  return {
    watch,
    applying: () => applying,
    reload: (load: () => Promise<AppConfig>) =>
      serial(() =>
        reloadConfig(rt, roles, async () => {
          const next = await load();
          yaml = next.connections;
          return withStoredConnections(rt, next);
        }),
      ),
  };
}

/** What listens for requests: the url the HTTP server answers on, and how it is closed (gently, or at once). */
interface Listeners {
  url: string;
  close(): Promise<void>;
  abandon(): void;
}

/**
 * The HTTP server: /metrics, /healthz, /readyz and /runbook, and the routes of httpRoutes. Where more
 * listeners start, they start here, after it, and close and abandon with it. On a failure the
 * runtime's Redis connections are closed before the error is thrown on.
 */
async function startListeners(
  rt: Runtime,
  config: AppConfig,
  port: number,
  workers: () => WorkerService | undefined,
): Promise<Listeners> {
  try {
    const http = await startHttpServer({
      port,
      host: config.http.host,
      registry: rt.metrics.registry,
      collect: collector(rt),
      extra: httpRoutes(rt, config),
      ready: () => readiness(rt, workers()),
      logger: rt.logger,
    });
    // Vendor webhooks on their own port (a `webhooks` block only); like the HTTP server, a port in use stops the start.
    const webhooks = await startWebhookIngress(rt).catch(async (e: unknown) => {
      await http.close();
      throw e;
    });
    return {
      url: http.url,
      close: async () => {
        await webhooks?.close();
        await http.close();
      },
      abandon: () => {
        void webhooks?.close();
        http.server.closeAllConnections();
        http.server.close();
      },
    };
  } catch (e) {
    await rt.close();
    throw e;
  }
}

/**
 * The routes the HTTP server serves after its own, each authenticating its requests itself: document
 * links (/documents/v1, a signed token each), the Tally agent's batches (app/agent-ingress.ts, the agent's
 * credential), the API, the console and the queue UI (/admin/queues, behind the admin token). Routes
 * served on the same port are added here.
 */
function httpRoutes(rt: Runtime, config: AppConfig): NonNullable<HttpServerOptions['extra']> {
  const app = express();
  app.disable('x-powered-by');
  // Document links carry their own credential (the signed token): before the API's and the console's auth.
  app.use(documentRoutesOf(rt));
  app.use(
    withAgentIngress(
      rt,
      withApi(
        rt,
        withConsole(
          rt,
          queueUi({
            queues: Object.values(rt.queues),
            adminToken: config.http.adminToken,
            trustedProxies: () => rt.config.http.trustedProxies,
            guard: credentialGuardOf(rt),
          }),
        ),
      ),
    ),
  );
  return app;
}

/** /readyz: Redis (answers, will not evict, billing not marked down) and the workers running. */
async function readiness(rt: Runtime, workers: WorkerService | undefined) {
  const checks: Record<string, Check> = await redisChecks(rt);
  checks.workers = workers
    ? { ok: workers.workers.every((w) => w.isRunning()), detail: `${workers.workers.length} running` }
    : { ok: false, detail: 'starting' };
  return { ok: Object.values(checks).every((c) => c.ok), checks };
}

/** The job schedulers of the roles, then their workers. */
async function startRoles(rt: Runtime, roles: readonly Role[]): Promise<WorkerService> {
  if (roles.includes('pull')) {
    const n = await upsertSchedulers(rt);
    rt.logger.info({ schedulers: n }, 'job schedulers upserted');
  }
  if (roles.includes('reconcile')) await upsertReconcileSchedulers(rt);
  if (roles.includes('upsert')) await upsertSweepScheduler(rt);
  return startWorkers(rt, roles);
}

/** The config counts as loaded; the start is logged, with a warning when tokens are stored unsealed. */
function announceStart(rt: Runtime, url: string, roles: readonly Role[]): void {
  rt.metrics.configLastReloadSuccess.set(Date.now() / 1000);
  rt.metrics.configLastReloadSuccessful.set(1);
  rt.logger.info({ url, roles, queues: Object.values(QUEUES) }, 'worker started');
  if (!rt.tokens.sealer.encrypted) {
    rt.logger.warn(
      `OAuth tokens are stored unencrypted in Redis: set ${TOKEN_KEY_ENV} (32 random bytes, base64) to seal them (docs/configuration.md)`,
    );
  }
}

/** The running service: reloads one at a time, and the order it winds down in. */
function runningService(
  rt: Runtime,
  parts: {
    roles: readonly Role[];
    workers: WorkerService;
    listeners: Listeners;
    checking: AbortController;
    checked: Promise<void>;
    config: AppConfig;
    version: number;
  },
): Service {
  const { roles, workers, listeners, checking, checked } = parts;
  // Reloads and stored connections' changes run one after another; stopping waits for the one under way (it uses the Redis connections).
  const sources = connectionSources(rt, roles, parts.config, parts.version);
  const stopping = inOrder([
    { name: 'the connection checks', run: () => checked },
    { name: 'the stored connections watch', run: () => sources.watch.stop() },
    { name: 'a config reload', run: () => sources.applying() },
    { name: 'the workers', run: () => workers.stop(), waitingFor: () => workers.unsettled() },
    { name: 'the HTTP server', run: () => listeners.close() },
    { name: 'the Redis connections', run: () => rt.close() },
  ]);
  return {
    rt,
    workers,
    httpUrl: listeners.url,
    reload: (load) => {
      if (stopping.started()) {
        rt.logger.warn('config reload ignored: the worker is stopping');
        return Promise.resolve(refusedWhileStopping());
      }
      return sources.reload(load);
    },
    stop: () => {
      checking.abort();
      return stopOrGiveUpOnRedis(
        rt,
        stopping.run,
        () => {
          rt.logger.warn(
            'Redis unreachable and no job in flight: stopping without waiting for it (nothing to hand back)',
          );
          abandonAll(rt, workers, listeners);
        },
        workers,
      );
    },
    unsettled: () => stopping.unsettled(),
    abandon: () => {
      checking.abort();
      void sources.watch.stop();
      abandonAll(rt, workers, listeners);
    },
  };
}

const refusedWhileStopping = (): ReloadOutcome => ({
  result: 'refused',
  errors: ['the worker is stopping'],
  added: [],
  removed: [],
  changed: {},
  restartNeeded: [],
});

/**
 * The ordered stop, or, as soon as no job is in flight while Redis is away (app/idle-without-redis.ts),
 * `giveUp` instead: closing the workers and connections would wait for a Redis that may not come back,
 * up to the whole grace period plus the margin, for nothing left to hand back.
 */
async function stopOrGiveUpOnRedis(
  rt: Pick<Runtime, 'redis'>,
  stop: () => Promise<void>,
  giveUp: () => void,
  workers: Pick<WorkerService, 'idle'>,
): Promise<void> {
  const ended = new AbortController();
  const gone = idleWithoutRedis(rt.redis, workers.idle, ended.signal).then((yes) => {
    if (yes) giveUp();
    return yes;
  });
  try {
    await Promise.race([stop(), gone.then((yes) => (yes ? undefined : new Promise<void>(() => {})))]);
  } finally {
    ended.abort();
  }
}

/** Forces the workers closed, closes the HTTP server and drops the Redis connections, without waiting for any. */
function abandonAll(
  rt: Pick<Runtime, 'queues' | 'flow' | 'redis'>,
  workers: WorkerService,
  listeners: Listeners,
): void {
  workers.abandon();
  listeners.abandon();
  // Dropped, not quit: QUIT waits behind the commands queued for a reconnect.
  for (const q of Object.values(rt.queues)) q.disconnect().catch(() => {});
  rt.flow.disconnect().catch(() => {});
  rt.redis.disconnect();
}

/**
 * Steps run one after another, once (run() returns the same promise each time), and what of them is
 * left while they run: the current step's pending parts (or its name) and the steps not reached.
 */
function inOrder(steps: Array<{ name: string; run: () => Promise<unknown>; waitingFor?: () => string[] }>) {
  let running: Promise<void> | undefined;
  let step = 0;
  return {
    started: () => running !== undefined,
    run: () =>
      (running ??= (async () => {
        for (; step < steps.length; step++) await steps[step]!.run();
      })()),
    unsettled: (): string[] => {
      const current = running && steps[step];
      if (!current) return [];
      return [...(current.waitingFor?.() ?? [current.name]), ...steps.slice(step + 1).map((s) => s.name)];
    },
  };
}
