import { isDeepStrictEqual } from 'node:util';
import { FlowProducer, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { connectorFor } from '../connectors/registry.js';
import type { Connector, ReadContext } from '../src/connector/types.js';
import { CREDENTIALS_RECHECK_MS } from '../src/auth/credentials-recheck.js';
import { TokenSealer } from '../src/auth/token-sealer.js';
import { TokenStore } from '../src/auth/token-store.js';
import { BillingClient } from '../src/billing/client.js';
import { type BillingTarget, billingTargetOf, defaultBillingTarget } from '../src/billing/billing-target.js';
import type { AppConfig, ConnectionConfig } from '../src/config.js';
import { ConfigError } from '../src/errors/index.js';
import type { VendorClient } from '../src/http/vendor-client.js';
import { buildInfo } from '../src/build-info.js';
import { createMetrics, initialiseSeries, type Metrics, statusClass } from '../src/observability/metrics.js';
import { BackfillRuns } from '../src/pipeline/backfill-runs.js';
import { BillingBudget } from '../src/pipeline/billing-budget.js';
import { BillingCompanies } from '../src/pipeline/billing-companies.js';
import { BillingKeyBudgets } from '../src/pipeline/billing-key-budgets.js';
import { Checkpoints } from '../src/pipeline/checkpoints.js';
import { ConnectionSlots } from '../src/pipeline/connection-slots.js';
import { WakeLine } from '../src/pipeline/wake-line.js';
import { ConnectionControl } from '../src/pipeline/connection-control.js';
import { CustomersEnsured } from '../src/pipeline/customers-ensured.js';
import { type StateKeys, stateKeys } from '../src/pipeline/keys.js';
import { InFlight } from '../src/pipeline/in-flight.js';
import { Ledger } from '../src/pipeline/ledger.js';
import { LedgerDateIndex } from '../src/pipeline/ledger-date-index.js';
import { ReconcileCycleState } from '../src/pipeline/reconcile-cycle-state.js';
import { Outages } from '../src/pipeline/outages.js';
import { Quarantine } from '../src/pipeline/quarantine.js';
import { Quotas } from '../src/pipeline/quotas.js';
import { ReconcileState } from '../src/pipeline/reconcile-state.js';
import { LeaseKeeper } from '../src/pipeline/lease-keeper.js';
import { RecordLock } from '../src/pipeline/record-lock.js';
import { RedisHealth } from '../src/pipeline/redis-health.js';
import { RunHistory } from '../src/pipeline/run-history.js';
import { SyncStatus } from '../src/pipeline/sync-status.js';
import { UpsertState } from '../src/pipeline/upsert-state.js';
import { assertNoEviction, checkRedisReachable, isClusterUrl, producerConnection, resolveRedis, stateConnection, workerConnection } from '../src/redis.js';
import { jobOptions, QUEUES, queuePrefix, type QueueName } from './catalog.js';

/** Our state in Redis, one store per concern; every write a store offers is atomic where jobs can race. */
export interface StateStores {
  ledger: Ledger;
  /** The ledger's document-date index (counts and ids by invoice date). */
  ledgerDates: LedgerDateIndex;
  /** The scheduled reconcile's history cycle, per connection. */
  reconcileCycle: ReconcileCycleState;
  checkpoints: Checkpoints;
  quarantine: Quarantine;
  inFlight: InFlight;
  /** Billing and vendor outages in progress, shared by every process. */
  outages: Outages;
  quotas: Quotas;
  /** Each connection's jobs running now, across every process (sync.maxJobsPerConnection). */
  connectionSlots: ConnectionSlots;
  /** Wake-up instants of a connection's jobs waiting for the same slot, spaced out. */
  wakeLine: WakeLine;
  locks: RecordLock;
  /** Renews every lease the process holds (job slots, pull locks, record locks) on one timer. */
  leases: LeaseKeeper;
  tokens: TokenStore;
  upsertState: UpsertState;
  customersEnsured: CustomersEnsured;
  syncStatus: SyncStatus;
  reconcileState: ReconcileState;
  backfillRuns: BackfillRuns;
  /** The last runs of each pull stream and of reconciliation, per connection (`erp-sync runs`). */
  runHistory: RunHistory;
  /** The deployment's billing budget (`rateLimit.scope: deployment`): every billing request takes a slot. */
  billingBudget: BillingBudget;
  /** Per billing key budgets (`billing.rateLimit.scope: key`). */
  billingKeyBudgets: BillingKeyBudgets;
  /** The billing company each connection's state belongs to. */
  billingCompanies: BillingCompanies;
  health: RedisHealth;
  /** Connections an operator paused, and the jobs held meanwhile. */
  connectionControl: ConnectionControl;
}

/**
 * The billing company a connection writes to: the client holding its keys, and what may be shown of it
 * (names and fingerprints, never a key).
 */
export interface ConnectionBilling {
  client: BillingClient;
  /** Non-secret id of the company (state, metrics): its configured name, else `key-<fingerprint>`. */
  company: string;
  /** Non-secret id (fingerprint) of the key: its rate budget under `rateLimit.scope: key`. */
  keyId: string;
  /** The company's base currency: mapped bodies' exchange rates are relative to it. */
  baseCurrency: string;
  /** Whether the connection has an attachment key (ERP document links are attached). */
  canAttach: boolean;
  /**
   * Where billing calls made outside upsert jobs take their slot: the key's budget (`scope: key`); with
   * one budget for the deployment, the client paces each request itself and this waits for nothing.
   */
  budget: { take(signal?: AbortSignal): Promise<void> };
}

/** One configured connection: its config, its connector, its billing company, and how a stream read of it starts. */
export interface ConnectionHandle {
  config: ConnectionConfig;
  connector: Connector<any>;
  billing: ConnectionBilling;
  /** A stream read's context: the connection's shared vendor client and its settings as the config parse left them. */
  readContext(read: Pick<ReadContext, 'logger' | 'signal' | 'until' | 'window' | 'knownVersions'>): ReadContext;
}

/**
 * The process's parts, built once by `createRuntime` (the one place that touches Redis connections).
 * Job processors never receive it whole: `makeJobHelpers` (job-helpers.ts) hands each only what it uses.
 */
export interface Runtime extends StateStores {
  config: AppConfig;
  logger: Logger;
  metrics: Metrics;
  /** The state connection and key names, for inspection (tests, tools); code goes through the stores. */
  redis: Redis;
  keys: StateKeys;
  queues: { pull: Queue; upsert: Queue; backfill: Queue; reconcile: Queue; sweep: Queue };
  flow: FlowProducer;
  /** The default billing company's client (`billing`), for calls made for no connection (the outage probe). */
  billing: BillingClient;
  /** The client of the billing company a connection writes to: every billing call made for a connection goes through it. */
  billingFor(connectionId: string): BillingClient;
  /**
   * The billing company a connection writes to, also for a connection a config reload removed (its
   * upserts already queued still go through, to the company they were read for).
   */
  billingOf(connectionId: string): ConnectionBilling;
  options: ReturnType<typeof jobOptions>;
  connection(id: string): ConnectionHandle;
  vendorClient(id: string): VendorClient;
  /**
   * What a BullMQ Worker of `queue` needs: a new worker-style connection (maxRetriesPerRequest null, closed
   * by close()) and the queue's prefix (queuePrefix: hash-tagged on a Cluster).
   */
  workerOptions(queue?: string): { connection: Redis; prefix: string };
  /**
   * Swaps in a reloaded config (jobs/reload-config.ts decides what of it may change while running):
   * `config` and connection lookups answer with `next` at once; the vendor client of a connection whose
   * config changed or went away is dropped, so its next use builds one from the new config (a job that
   * holds the old client keeps it until it ends).
   */
  reconfigure(next: AppConfig): void;
  close(): Promise<void>;
}

/**
 * Redis as the config says (or REDIS_URL, a local one, or an embedded redis-server unless
 * `allowEmbedded` is false), then the runtime on it; close() also stops an embedded Redis.
 */
export async function openRuntime(config: AppConfig, logger: Logger, options: { allowEmbedded?: boolean; patient?: boolean } = {}): Promise<Runtime> {
  const redis = await resolveRedis(config.redis.url, options);
  logger.info({ redis: redis.source }, 'redis resolved');
  let rt: Runtime;
  try {
    rt = await createRuntime(config, redis.url, logger, undefined, { patient: options.patient });
  } catch (e) {
    await redis.stop();
    throw e;
  }
  const close = rt.close;
  rt.close = async () => {
    await close();
    await redis.stop();
  };
  return rt;
}

/**
 * Everything a process needs, built once from the config: Redis connections (producer vs worker), the
 * queues, our state stores, the billing client, and per-connection vendor clients whose quotas and
 * tokens live in Redis (so N processes behave like one).
 */
export async function createRuntime(
  config: AppConfig,
  redisUrl: string,
  logger: Logger,
  metrics = createMetrics(),
  options: { patient?: boolean } = {},
): Promise<Runtime> {
  await checkRedisReachable(redisUrl);
  // A one-shot command (patient) queues its commands while Redis reconnects and waits for it, however
  // long: its work goes on in Redis meanwhile. A worker's producer fails fast instead (its jobs retry).
  const patience = options.patient ? { enableOfflineQueue: true, maxRetriesPerRequest: null } : {};
  // Connection errors while running (Redis restarting, a failover) are logged at most every 10 s per
  // connection, message only: the commands that failed reject and are retried by their owners.
  const logErrors = (r: Redis, role: string) => {
    let last = 0;
    r.on('error', (err: Error) => {
      if (Date.now() - last < 10_000) return;
      last = Date.now();
      logger.warn({ redis: role, error: err.message }, 'Redis connection error');
    });
    return r;
  };
  const redis = logErrors(stateConnection(redisUrl, patience), 'state');
  await assertNoEviction(redis);
  metrics.redisEvictionPolicyOk.set(1);
  const defaultTarget = defaultBillingTarget(config);
  let targets = new Map(config.connections.map((c) => [c.id, billingTargetOf(config, c)]));
  initialiseSeries(metrics, {
    queues: Object.values(QUEUES),
    connections: config.connections.map((c) => ({ ...c, billingCompany: targets.get(c.id)!.company })),
    build: buildInfo(),
  });
  const producer = logErrors(producerConnection(redisUrl, { lazyConnect: false, ...patience }), 'producer');
  await new Promise<void>((resolve, reject) => {
    if (producer.status === 'ready') return resolve();
    producer.once('ready', () => resolve());
    producer.once('error', reject);
  });
  const extra: Redis[] = [];
  const prefix = config.redis.prefix;
  // A Redis Cluster: keys carry hash tags (per connection, per queue); on one Redis the names stay as they were.
  const cluster = isClusterUrl(redisUrl);
  if (cluster && /[{}]/.test(prefix)) {
    throw new ConfigError(
      `redis.prefix "${prefix}" holds a hash tag: on a Redis Cluster erp-sync tags each connection's and each queue's keys itself (docs/operations.md, "Redis Cluster"); use a prefix without braces`,
    );
  }
  const layout = { cluster };
  const keys = stateKeys(prefix, layout);
  const opts = jobOptions(config);
  const queue = (name: QueueName, defaultJobOptions: object) =>
    new Queue(name, { connection: producer, prefix: queuePrefix(prefix, name, layout), defaultJobOptions });
  const queues = {
    pull: queue(QUEUES.pull, opts.pull),
    upsert: queue(QUEUES.upsert, opts.upsert),
    backfill: queue(QUEUES.backfill, opts.backfill),
    reconcile: queue(QUEUES.reconcile, opts.reconcile),
    sweep: queue(QUEUES.sweep, opts.sweep),
  };
  for (const q of Object.values(queues)) q.on('error', (err) => logger.error({ err, queue: q.name }, 'queue error'));
  // A backfill flow's parent (backfill) and children (pull) share a prefix, hence a slot on a Cluster.
  const flow = new FlowProducer({ connection: producer, prefix: queuePrefix(prefix, QUEUES.backfill, layout) });
  const quotas = new Quotas(redis, keys);
  // Tokens sealed at rest under ERP_SYNC_TOKEN_KEY when set (a malformed key stops the start here).
  const tokens = new TokenStore(redis, { prefix, cluster, sealer: TokenSealer.fromEnv(process.env) });
  const perKey = config.billing.rateLimit.scope === 'key';
  const billingBudget = new BillingBudget(redis, keys.billingRate(), config.billing.rateLimit.max, config.billing.rateLimit.durationMs);
  // One client per distinct pair of keys: connections of one billing company share it.
  const billingClients = new Map<string, BillingClient>();
  const billingClient = (t: Pick<BillingTarget, 'apiKey' | 'attachmentKey'>): BillingClient => {
    const id = JSON.stringify([t.apiKey, t.attachmentKey ?? null]);
    let client = billingClients.get(id);
    if (client) return client;
    client = new BillingClient({
      baseUrl: config.billing.url,
      apiKey: t.apiKey,
      attachmentKey: t.attachmentKey,
      timeoutMs: config.billing.timeoutMs,
      // One budget for the deployment: every request of every process takes its slot (per key, upsert
      // jobs and reconciliation take their key's slot themselves).
      pace: perKey ? undefined : (signal) => billingBudget.take(signal),
      onResponse: ({ endpoint, status, durationMs }) => {
        metrics.billingRequests.inc({ endpoint, status_class: statusClass(status) });
        metrics.billingRequestDuration.observe({ endpoint }, durationMs / 1000);
        if (status === 429) metrics.rateLimited.inc({ target: 'billing' });
      },
    });
    billingClients.set(id, client);
    return client;
  };
  const billing = billingClient(defaultTarget);
  const leases = new LeaseKeeper({ logger, metrics });
  const stores: StateStores = {
    ledger: new Ledger(redis, keys),
    ledgerDates: new LedgerDateIndex(redis, keys),
    reconcileCycle: new ReconcileCycleState(redis, keys),
    checkpoints: new Checkpoints(redis, keys),
    quarantine: new Quarantine(redis, keys),
    inFlight: new InFlight(redis, keys),
    outages: new Outages(redis, keys),
    quotas,
    connectionSlots: new ConnectionSlots(redis, keys),
    wakeLine: new WakeLine(redis, keys),
    locks: new RecordLock(redis, keys, leases),
    leases,
    tokens,
    upsertState: new UpsertState(redis, keys),
    customersEnsured: new CustomersEnsured(redis, keys),
    syncStatus: new SyncStatus(redis, keys),
    reconcileState: new ReconcileState(redis, keys),
    backfillRuns: new BackfillRuns(redis, keys),
    runHistory: new RunHistory(redis, keys, config.sync.runHistory),
    billingBudget,
    billingKeyBudgets: new BillingKeyBudgets(redis, keys, config.billing.rateLimit.max, config.billing.rateLimit.durationMs),
    billingCompanies: new BillingCompanies(redis, keys),
    health: new RedisHealth(redis),
    connectionControl: new ConnectionControl(redis, keys),
  };

  let byId = new Map(config.connections.map((c) => [c.id, c]));
  const clients = new Map<string, VendorClient>();
  const connectionConfig = (id: string) => {
    const c = byId.get(id);
    if (!c) throw new ConfigError(`unknown connection "${id}" (configured: ${[...byId.keys()].join(', ')})`);
    return { config: c, connector: connectorFor(c.system) };
  };
  const vendorClient = (id: string) => {
    let client = clients.get(id);
    if (client) return client;
    const { config: c, connector } = connectionConfig(id);
    const budget = { ...(connector.rateBudgetFor?.(c.settings) ?? connector.rateBudget), ...(c.rateBudget ?? {}) };
    client = connector.createClient({
      connectionId: c.id,
      settings: { ...c.settings, ...(c.baseUrl ? { baseUrl: c.baseUrl } : {}) },
      tokens,
      logger: logger.child({ connection: c.id }),
      acquire: (signal) => quotas.acquire(c.id, budget, { signal }),
      onResponse: ({ endpoint, status, durationMs }) => {
        metrics.vendorRequests.inc({ connection: c.id, endpoint, status_class: statusClass(status) });
        metrics.vendorRequestDuration.observe({ connection: c.id, endpoint }, durationMs / 1000);
        if (status === 429) metrics.rateLimited.inc({ target: c.id });
      },
      park: (untilMs) => quotas.park(c.id, untilMs),
      // A refused grant: the connection waits (parked, rechecked) instead of calling the token endpoint in a loop.
      onCredentialsRefused: async (err) => {
        metrics.connectionCredentialsOk.set({ connection: c.id }, 0);
        const until = Date.now() + CREDENTIALS_RECHECK_MS;
        await quotas.park(c.id, until);
        logger.error(
          { connection: c.id, err, recheckAt: new Date(until).toISOString() },
          "the vendor refused the connection's refresh token: re-authorise it (docs/operations.md, ErpSyncCredentialsRefused); parked until the recheck",
        );
      },
      // A new refresh token in the config replaced a refused one: try it now rather than at the recheck.
      onCredentialsReplaced: async () => {
        await quotas.unpark(c.id);
        metrics.connectionCredentialsOk.set({ connection: c.id }, 1);
        logger.info({ connection: c.id }, 'a new refresh token from the config replaced the stored one (re-consent); park lifted');
      },
      onQuota: (window, remaining) => {
        metrics.vendorQuotaRemaining.set({ connection: c.id, window }, remaining);
        // The vendor's count wins over ours where it says less is left (another app on the same organisation).
        quotas.observe(c.id, budget, window, remaining).catch((err: unknown) => logger.warn({ err, connection: c.id }, 'could not record the vendor quota'));
      },
    });
    clients.set(id, client);
    return client;
  };
  // Built once per billing target (a reload makes new targets): every upsert asks for its connection's.
  const billings = new WeakMap<BillingTarget, ConnectionBilling>();
  const connectionBilling = (id: string): ConnectionBilling => {
    const t = targets.get(id);
    if (!t) throw new ConfigError(`unknown connection "${id}" (configured: ${[...byId.keys()].join(', ')})`);
    let made = billings.get(t);
    if (!made) billings.set(t, (made = billingOfTarget(t)));
    return made;
  };
  const billingOfTarget = (t: BillingTarget): ConnectionBilling => {
    return {
      client: billingClient(t),
      company: t.company,
      keyId: t.keyId,
      baseCurrency: t.baseCurrency,
      canAttach: Boolean(t.attachmentKey),
      budget: perKey ? { take: (signal) => stores.billingKeyBudgets.take(t.keyId, signal) } : { take: async () => {} },
    };
  };
  const connection = (id: string): ConnectionHandle => {
    const { config: c, connector } = connectionConfig(id);
    return {
      config: c,
      connector,
      billing: connectionBilling(c.id),
      readContext: (read) => ({ ...read, connectionId: c.id, http: vendorClient(c.id), settings: c.settings }),
    };
  };

  const rt: Runtime = {
    ...stores,
    config,
    logger,
    metrics,
    redis,
    keys,
    queues,
    flow,
    billing,
    billingOf: connectionBilling,
    billingFor: (id) => connection(id).billing.client,
    options: opts,
    connection,
    vendorClient,
    workerOptions: (queue) => {
      const r = logErrors(workerConnection(redisUrl), 'worker');
      extra.push(r);
      return { connection: r, prefix: queue && isQueueName(queue) ? queuePrefix(prefix, queue, layout) : prefix };
    },
    reconfigure: (next) => {
      const before = byId;
      byId = new Map(next.connections.map((c) => [c.id, c]));
      // A connection's billing keys are its own or the running default's (billing.* changes need a restart).
      // Removed connections keep theirs: their upserts already queued still go where they were read for.
      targets = new Map([...targets, ...next.connections.map((c) => [c.id, billingTargetOf(config, c)] as const)]);
      for (const id of [...clients.keys()]) if (!isDeepStrictEqual(before.get(id), byId.get(id))) clients.delete(id);
      rt.config = next;
    },
    close: async () => {
      await Promise.allSettled([...Object.values(queues).map((q) => q.close()), flow.close()]);
      await Promise.allSettled([redis.quit(), producer.quit(), ...extra.map((r) => r.quit())]);
    },
  };
  return rt;
}

function isQueueName(name: string): name is QueueName {
  return (Object.values(QUEUES) as string[]).includes(name);
}
