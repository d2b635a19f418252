import { FlowProducer, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RedisOutageLog } from '../src/observability/redis-outage-log.js';
import { sharedLookups } from '../src/pipeline/shared-lookups.js';
import { TokenSealer } from '../src/auth/token-sealer.js';
import { TokenStore } from '../src/auth/token-store.js';
import { billingTargetOf, defaultBillingTarget } from '../src/billing/billing-target.js';
import type { AppConfig } from '../src/config.js';
import { ConfigError } from '../src/errors/index.js';
import { buildInfo } from '../src/build-info.js';
import { createMetrics, initialiseSeries, type Metrics } from '../src/observability/metrics.js';
import { BillingBudget } from '../src/pipeline/billing-budget.js';
import { type StateKeys, stateKeys } from '../src/pipeline/keys.js';
import { Quotas } from '../src/pipeline/quotas.js';
import { LeaseKeeper } from '../src/pipeline/lease-keeper.js';
import {
  assertNoEviction,
  checkRedisReachable,
  isClusterUrl,
  producerConnection,
  resolveRedis,
  stateConnection,
  workerConnection,
} from '../src/redis.js';
import { jobOptions, QUEUES, queuePrefix, type QueueName } from '../jobs/catalog.js';
import { billingClients } from './runtime/billing-clients.js';
import { type ConnectionDirectory, connectionHandles } from './runtime/connection-handles.js';
import { createStateStores } from './runtime/state-stores.js';

import type { Runtime } from '../jobs/runtime.js';

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
  const redisOutage = new RedisOutageLog(logger);
  const logErrors = redisErrorLogger(logger, redisOutage);
  const redis = logErrors(stateConnection(redisUrl, patience), 'state');
  await assertNoEviction(redis);
  metrics.redisEvictionPolicyOk.set(1);
  const directory = connectionDirectory(config);
  initialiseSeries(metrics, {
    queues: Object.values(QUEUES),
    connections: config.connections.map((c) => ({ ...c, billingCompany: directory.targets.get(c.id)!.company })),
    build: buildInfo(),
  });
  const producer = await ready(
    logErrors(producerConnection(redisUrl, { lazyConnect: false, ...patience }), 'producer'),
  );
  const prefix = config.redis.prefix;
  const layout = keyLayout(prefix, redisUrl);
  const keys = stateKeys(prefix, layout);
  const opts = jobOptions(config);
  const { queues, flow } = createQueues(producer, prefix, layout, opts, logger, redisOutage);
  const { stores, billing, handles } = pipelineParts(redis, keys, config, directory, { layout, logger, metrics });
  const workers = workerConnections(redisUrl, prefix, layout, logErrors);
  const rt: Runtime = {
    ...stores,
    config,
    logger,
    metrics,
    redis,
    redisOutage,
    keys,
    queues,
    flow,
    billing,
    billingOf: handles.billingOf,
    billingFor: (id) => handles.connection(id).billing.client,
    options: opts,
    connection: handles.connection,
    vendorClient: handles.vendorClient,
    workerOptions: workers.options,
    reconfigure: (next) => {
      handles.reconfigure(next);
      rt.config = next;
    },
    close: async () => {
      await Promise.allSettled([...Object.values(queues).map((q) => q.close()), flow.close()]);
      await Promise.allSettled([redis.quit(), producer.quit(), ...workers.quitAll()]);
      redisOutage.stop();
    },
  };
  return rt;
}

/** Each connection's billing target and config, by id. */
function connectionDirectory(config: AppConfig): ConnectionDirectory {
  return {
    targets: new Map(config.connections.map((c) => [c.id, billingTargetOf(config, c)])),
    byId: new Map(config.connections.map((c) => [c.id, c])),
  };
}

/** The state stores on the state connection, the default billing client, and the connections' handles. */
function pipelineParts(
  redis: Redis,
  keys: StateKeys,
  config: AppConfig,
  directory: ConnectionDirectory,
  env: { layout: { cluster: boolean }; logger: Logger; metrics: Metrics },
) {
  const { logger, metrics } = env;
  const quotas = new Quotas(redis, keys);
  // Tokens sealed at rest under ERP_SYNC_TOKEN_KEY when set (a malformed key stops the start here).
  const tokens = new TokenStore(redis, {
    prefix: config.redis.prefix,
    cluster: env.layout.cluster,
    sealer: TokenSealer.fromEnv(process.env),
  });
  const billingBudget = new BillingBudget(
    redis,
    keys.billingRate(),
    config.billing.rateLimit.max,
    config.billing.rateLimit.durationMs,
  );
  const billingClient = billingClients(config, metrics, billingBudget);
  const billing = billingClient(defaultBillingTarget(config));
  const leases = new LeaseKeeper({ logger, metrics });
  const stores = createStateStores(redis, keys, config, { leases, quotas, tokens, billingBudget, metrics });
  const handles = connectionHandles(config, directory, {
    tokens,
    quotas,
    logger,
    metrics,
    billingClient,
    billingKeyBudgets: stores.billingKeyBudgets,
    lookupsStore: (connectionId) => sharedLookups(redis, keys, connectionId),
    agentInbox: (connectionId) => stores.agentInbox.readerFor(connectionId),
  });
  return { stores, billing, handles };
}

/** A Redis connection per worker (BullMQ blocks on it), each quit when the runtime closes. */
function workerConnections(
  redisUrl: string,
  prefix: string,
  layout: { cluster: boolean },
  logErrors: (r: Redis, role: string) => Redis,
) {
  const opened: Redis[] = [];
  const options: Runtime['workerOptions'] = (queue) => {
    const r = logErrors(workerConnection(redisUrl), 'worker');
    opened.push(r);
    return { connection: r, prefix: queue && isQueueName(queue) ? queuePrefix(prefix, queue, layout) : prefix };
  };
  return { options, quitAll: () => opened.map((r) => r.quit()) };
}

/**
 * Every connection's errors go to the process's one outage log (src/observability/redis-outage-log.ts):
 * an outage is a line when Redis goes, a summary while it stays away, a line when a connection is ready
 * again. Other errors are logged as they come, message only: the commands that failed reject and are
 * retried by their owners.
 */
function redisErrorLogger(logger: Logger, outage: RedisOutageLog) {
  return (r: Redis, role: string): Redis => {
    r.on('error', (err: Error) => {
      if (!outage.error(role, err)) logger.warn({ redis: role, error: err.message }, 'Redis connection error');
    });
    r.on('ready', () => outage.back(role));
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
  outage: RedisOutageLog,
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
  for (const q of Object.values(queues))
    q.on('error', (err) => outage.error(`${q.name} queue`, err) || logger.error({ err, queue: q.name }, 'queue error'));
  // A backfill flow's parent (backfill) and children (pull) share a prefix, hence a slot on a Cluster.
  const flow = new FlowProducer({ connection: producer, prefix: queuePrefix(prefix, QUEUES.backfill, layout) });
  return { queues, flow };
}

function isQueueName(name: string): name is QueueName {
  return (Object.values(QUEUES) as string[]).includes(name);
}
