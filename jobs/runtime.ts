import { FlowProducer, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Connector, ReadContext } from '../src/connector/types.js';
import { TokenSealer } from '../src/auth/token-sealer.js';
import { TokenStore } from '../src/auth/token-store.js';
import type { BillingClient } from '../src/billing/client.js';
import { billingTargetOf, defaultBillingTarget } from '../src/billing/billing-target.js';
import type { AppConfig, ConnectionConfig } from '../src/config.js';
import { ConfigError } from '../src/errors/index.js';
import type { VendorClient } from '../src/http/vendor-client.js';
import { buildInfo } from '../src/build-info.js';
import { createMetrics, initialiseSeries, type Metrics } from '../src/observability/metrics.js';
import type { BackfillRuns } from '../src/pipeline/backfill-runs.js';
import { BillingBudget } from '../src/pipeline/billing-budget.js';
import type { BillingCompanies } from '../src/pipeline/billing-companies.js';
import type { BillingKeyBudgets } from '../src/pipeline/billing-key-budgets.js';
import type { Checkpoints } from '../src/pipeline/checkpoints.js';
import type { ConnectionSlots } from '../src/pipeline/connection-slots.js';
import type { WakeLine } from '../src/pipeline/wake-line.js';
import type { ConnectionControl } from '../src/pipeline/connection-control.js';
import type { CustomersEnsured } from '../src/pipeline/customers-ensured.js';
import { type StateKeys, stateKeys } from '../src/pipeline/keys.js';
import type { InFlight } from '../src/pipeline/in-flight.js';
import type { Ledger } from '../src/pipeline/ledger.js';
import type { LedgerDateIndex } from '../src/pipeline/ledger-date-index.js';
import type { ReconcileCycleState } from '../src/pipeline/reconcile-cycle-state.js';
import type { Outages } from '../src/pipeline/outages.js';
import type { Quarantine } from '../src/pipeline/quarantine.js';
import { Quotas } from '../src/pipeline/quotas.js';
import type { ReconcileState } from '../src/pipeline/reconcile-state.js';
import { LeaseKeeper } from '../src/pipeline/lease-keeper.js';
import type { RecordLock } from '../src/pipeline/record-lock.js';
import type { RedisHealth } from '../src/pipeline/redis-health.js';
import type { RunHistory } from '../src/pipeline/run-history.js';
import type { SyncStatus } from '../src/pipeline/sync-status.js';
import type { UpsertState } from '../src/pipeline/upsert-state.js';
import type { ConnectionState } from '../src/pipeline/connection-state.js';
import {
  assertNoEviction,
  checkRedisReachable,
  isClusterUrl,
  producerConnection,
  resolveRedis,
  stateConnection,
  workerConnection,
} from '../src/redis.js';
import { jobOptions, QUEUES, queuePrefix, type QueueName } from './catalog.js';
import { billingClients } from './runtime/billing-clients.js';
import { type ConnectionDirectory, connectionHandles } from './runtime/connection-handles.js';
import { createStateStores } from './runtime/state-stores.js';

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
  /** A connection's state as a whole: starting over for another billing company (a rebind). */
  connectionState: ConnectionState;
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
export async function openRuntime(
  config: AppConfig,
  logger: Logger,
  options: { allowEmbedded?: boolean; patient?: boolean } = {},
): Promise<Runtime> {
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
  const logErrors = redisErrorLogger(logger);
  const redis = logErrors(stateConnection(redisUrl, patience), 'state');
  await assertNoEviction(redis);
  metrics.redisEvictionPolicyOk.set(1);
  const defaultTarget = defaultBillingTarget(config);
  const directory: ConnectionDirectory = {
    targets: new Map(config.connections.map((c) => [c.id, billingTargetOf(config, c)])),
    byId: new Map(config.connections.map((c) => [c.id, c])),
  };
  initialiseSeries(metrics, {
    queues: Object.values(QUEUES),
    connections: config.connections.map((c) => ({ ...c, billingCompany: directory.targets.get(c.id)!.company })),
    build: buildInfo(),
  });
  const producer = await ready(
    logErrors(producerConnection(redisUrl, { lazyConnect: false, ...patience }), 'producer'),
  );
  const extra: Redis[] = [];
  const prefix = config.redis.prefix;
  const layout = keyLayout(prefix, redisUrl);
  const keys = stateKeys(prefix, layout);
  const opts = jobOptions(config);
  const { queues, flow } = createQueues(producer, prefix, layout, opts, logger);
  const quotas = new Quotas(redis, keys);
  // Tokens sealed at rest under ERP_SYNC_TOKEN_KEY when set (a malformed key stops the start here).
  const tokens = new TokenStore(redis, { prefix, cluster: layout.cluster, sealer: TokenSealer.fromEnv(process.env) });
  const billingBudget = new BillingBudget(
    redis,
    keys.billingRate(),
    config.billing.rateLimit.max,
    config.billing.rateLimit.durationMs,
  );
  const billingClient = billingClients(config, metrics, billingBudget);
  const billing = billingClient(defaultTarget);
  const leases = new LeaseKeeper({ logger, metrics });
  const stores = createStateStores(redis, keys, config, { leases, quotas, tokens, billingBudget });
  const handles = connectionHandles(config, directory, {
    tokens,
    quotas,
    logger,
    metrics,
    billingClient,
    billingKeyBudgets: stores.billingKeyBudgets,
  });

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
    billingOf: handles.billingOf,
    billingFor: (id) => handles.connection(id).billing.client,
    options: opts,
    connection: handles.connection,
    vendorClient: handles.vendorClient,
    workerOptions: (queue) => {
      const r = logErrors(workerConnection(redisUrl), 'worker');
      extra.push(r);
      return { connection: r, prefix: queue && isQueueName(queue) ? queuePrefix(prefix, queue, layout) : prefix };
    },
    reconfigure: (next) => {
      handles.reconfigure(next);
      rt.config = next;
    },
    close: async () => {
      await Promise.allSettled([...Object.values(queues).map((q) => q.close()), flow.close()]);
      await Promise.allSettled([redis.quit(), producer.quit(), ...extra.map((r) => r.quit())]);
    },
  };
  return rt;
}

/**
 * Connection errors while running (Redis restarting, a failover) are logged at most every 10 s per
 * connection, message only: the commands that failed reject and are retried by their owners.
 */
function redisErrorLogger(logger: Logger) {
  return (r: Redis, role: string): Redis => {
    let last = 0;
    r.on('error', (err: Error) => {
      if (Date.now() - last < 10_000) return;
      last = Date.now();
      logger.warn({ redis: role, error: err.message }, 'Redis connection error');
    });
    return r;
  };
}

async function ready(producer: Redis): Promise<Redis> {
  await new Promise<void>((resolve, reject) => {
    if (producer.status === 'ready') return resolve();
    producer.once('ready', () => resolve());
    producer.once('error', reject);
  });
  return producer;
}

/** A Redis Cluster: keys carry hash tags (per connection, per queue); on one Redis the names stay as they were. */
function keyLayout(prefix: string, redisUrl: string): { cluster: boolean } {
  const cluster = isClusterUrl(redisUrl);
  if (cluster && /[{}]/.test(prefix)) {
    throw new ConfigError(
      `redis.prefix "${prefix}" holds a hash tag: on a Redis Cluster erp-sync tags each connection's and each queue's keys itself (docs/operations.md, "Redis Cluster"); use a prefix without braces`,
    );
  }
  return { cluster };
}

function createQueues(
  producer: Redis,
  prefix: string,
  layout: { cluster: boolean },
  opts: ReturnType<typeof jobOptions>,
  logger: Logger,
) {
  const queue = (name: QueueName, defaultJobOptions: object) =>
    new Queue(name, { connection: producer, prefix: queuePrefix(prefix, name, layout), defaultJobOptions });
  const queues: Runtime['queues'] = {
    pull: queue(QUEUES.pull, opts.pull),
    upsert: queue(QUEUES.upsert, opts.upsert),
    backfill: queue(QUEUES.backfill, opts.backfill),
    reconcile: queue(QUEUES.reconcile, opts.reconcile),
    sweep: queue(QUEUES.sweep, opts.sweep),
  };
  for (const q of Object.values(queues)) q.on('error', (err) => logger.error({ err, queue: q.name }, 'queue error'));
  // A backfill flow's parent (backfill) and children (pull) share a prefix, hence a slot on a Cluster.
  const flow = new FlowProducer({ connection: producer, prefix: queuePrefix(prefix, QUEUES.backfill, layout) });
  return { queues, flow };
}

function isQueueName(name: string): name is QueueName {
  return (Object.values(QUEUES) as string[]).includes(name);
}
