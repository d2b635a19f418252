import { spawn, type ChildProcess } from 'node:child_process';
import { connect as netConnect } from 'node:net';
import { freePort } from './http/free-port.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { ConfigError } from './errors/index.js';
import { redactUrlCredentials } from './observability/logger.js';

/**
 * Redis is the only stateful dependency. Resolution order (README, "Quick start"):
 * 1. an explicit URL (config `redis.url` or REDIS_URL);
 * 2. a Redis answering on 127.0.0.1:6379;
 * 3. `redis-server` from PATH, started on a free loopback port for the life of the command;
 * 4. otherwise a clear message saying how to get one.
 */
export interface ResolvedRedis {
  url: string;
  source: 'configured' | 'local' | 'embedded';
  stop(): Promise<void>;
}

export async function resolveRedis(url?: string, options: { allowEmbedded?: boolean } = {}): Promise<ResolvedRedis> {
  const explicit = url ?? process.env.REDIS_URL;
  if (explicit) return { url: explicit, source: 'configured', stop: async () => {} };
  if (await pings('127.0.0.1', 6379)) return { url: 'redis://127.0.0.1:6379', source: 'local', stop: async () => {} };
  if (options.allowEmbedded === false) throw noRedis();
  return startEmbeddedRedis();
}

function noRedis(): ConfigError {
  return new ConfigError(
    'no Redis: set REDIS_URL (e.g. redis://127.0.0.1:6379), start one on 127.0.0.1:6379, or install redis-server ' +
      '(Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) so erp-sync can start its own',
  );
}

/** PING over a raw socket: no client library, no retries, 1 s budget. */
export function pings(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = netConnect(port, host);
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => done(d.toString().startsWith('+PONG')));
    socket.on('error', () => done(false));
  });
}

/** Starts redis-server (ephemeral: no RDB, no AOF, noeviction) on a free port. */
export async function startEmbeddedRedis(): Promise<ResolvedRedis> {
  const port = await freePort();
  let child: ChildProcess;
  try {
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory-policy',
        'noeviction',
      ],
      {
        stdio: 'ignore',
      },
    );
  } catch {
    throw noRedis();
  }
  const spawnError = new Promise<never>((_, reject) => child.once('error', () => reject(noRedis())));
  const ready = (async () => {
    for (let i = 0; i < 100; i++) {
      if (await pings('127.0.0.1', port, 200)) return;
      await sleep(50);
    }
    throw new ConfigError(`redis-server did not answer on 127.0.0.1:${port}`);
  })();
  await Promise.race([ready, spawnError]);
  const stopOnExit = () => child.kill('SIGTERM');
  process.once('exit', stopOnExit);
  return {
    url: `redis://127.0.0.1:${port}`,
    source: 'embedded',
    stop: async () => {
      process.off('exit', stopOnExit);
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(3000)]);
    },
  };
}

/**
 * Where Redis is, from one URL (config `redis.url` or REDIS_URL), so a child process or another command
 * reaches the same Redis through the same string:
 * - `redis://[user:password@]host:port[/db]`, or `rediss://…` for TLS: one Redis (ioredis parses it);
 * - `redis+cluster://[user:password@]host:port,host:port,…` (`rediss+cluster://` for TLS): a Redis Cluster,
 *   the nodes being seeds (any reachable one tells the client the whole cluster);
 * - `redis+sentinel://[user:password@]host:port,host:port,…/<master name>[?sentinelPassword=…]`
 *   (`rediss+sentinel://` for TLS to the master and the sentinels): the master Sentinel names, followed across failovers.
 * The password, when any, is the data nodes' (Cluster nodes, Sentinel's master).
 */
export type RedisTarget =
  | { kind: 'standalone'; url: string }
  | {
      kind: 'cluster';
      nodes: Array<{ host: string; port: number }>;
      username?: string;
      password?: string;
      tls: boolean;
    }
  | {
      kind: 'sentinel';
      sentinels: Array<{ host: string; port: number }>;
      name: string;
      username?: string;
      password?: string;
      sentinelPassword?: string;
      db?: number;
      tls: boolean;
    };

const MULTI_HOST = /^(rediss?)\+(cluster|sentinel):\/\/(?:([^@/]*)@)?([^/?#]+)(\/[^?#]*)?(\?[^#]*)?$/;

export function parseRedisUrl(url: string): RedisTarget {
  const m = MULTI_HOST.exec(url);
  // Anything else is ioredis' own to read (redis://, rediss://, a unix socket path).
  if (!m) return { kind: 'standalone', url };
  const [, scheme, kind, userinfo, hostList, path, query] = m;
  const nodes = hostList!.split(',').map((hp) => {
    const at = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(hp.trim());
    if (!at) throw new ConfigError(`redis.url ${redactUrlCredentials(url)}: "${hp}" is not host:port`);
    return { host: at[1]!, port: Number(at[2] ?? (kind === 'sentinel' ? 26379 : 6379)) };
  });
  let username: string | undefined;
  let password: string | undefined;
  if (userinfo) {
    const colon = userinfo.indexOf(':');
    username = decodeURIComponent(colon < 0 ? userinfo : userinfo.slice(0, colon)) || undefined;
    password = colon < 0 ? undefined : decodeURIComponent(userinfo.slice(colon + 1)) || undefined;
  }
  const tls = scheme === 'rediss';
  if (kind === 'cluster') return { kind, nodes, username, password, tls };
  const name = decodeURIComponent((path ?? '').replace(/^\//, ''));
  if (!name)
    throw new ConfigError(
      `redis.url ${redactUrlCredentials(url)}: name the master after the hosts, e.g. redis+sentinel://host:26379/mymaster`,
    );
  const params = new URLSearchParams(query ?? '');
  const db = params.get('db');
  return {
    kind: 'sentinel',
    sentinels: nodes,
    name,
    username,
    password,
    sentinelPassword: params.get('sentinelPassword') ?? undefined,
    db: db === null ? undefined : Number(db),
    tls,
  };
}

/** True when the URL names a Redis Cluster (keys then carry hash tags: src/pipeline/keys.ts). */
export function isClusterUrl(url: string): boolean {
  return parseRedisUrl(url).kind === 'cluster';
}

/**
 * The one way a client is made, for every role (state, producer, BullMQ workers): a `Redis` for one Redis
 * or a Sentinel-managed master, a `Cluster` for a Redis Cluster. The Cluster is returned typed as
 * `Redis`: it answers the same commands (routing each by its key's slot), and what differs (SCAN, CONFIG,
 * INFO go to one node) is handled where it matters by `isCluster` (scanKeys, evictionPolicy).
 * Per-command options (`extra`: maxRetriesPerRequest, enableOfflineQueue, lazyConnect, …) apply to each
 * node's connection, as https://github.com/redis/ioredis#cluster describes (`redisOptions`).
 */
export function createRedisClient(url: string, extra: RedisOptions = {}): Redis {
  const target = parseRedisUrl(url);
  if (target.kind === 'standalone') return new Redis(url, extra);
  const tls = target.tls ? { tls: {} } : {};
  if (target.kind === 'sentinel') {
    // https://github.com/redis/ioredis#sentinel
    return new Redis({
      ...extra,
      sentinels: target.sentinels,
      name: target.name,
      username: target.username,
      password: target.password,
      sentinelPassword: target.sentinelPassword,
      ...(target.db !== undefined ? { db: target.db } : {}),
      ...tls,
      // TLS to the master (tls + enableTLSForSentinelMode) and to the sentinels (sentinelTLS).
      ...(target.tls ? { enableTLSForSentinelMode: true, sentinelTLS: {} } : {}),
    });
  }
  const { lazyConnect, enableOfflineQueue, enableReadyCheck, enableAutoPipelining, retryStrategy, ...perNode } = extra;
  const options: ClusterOptions = {
    redisOptions: { ...perNode, username: target.username, password: target.password, ...tls },
    ...(lazyConnect !== undefined ? { lazyConnect } : {}),
    // The cluster client pipelines per slot's node itself (https://github.com/redis/ioredis#autopipelining).
    ...(enableAutoPipelining !== undefined ? { enableAutoPipelining } : {}),
    ...(enableOfflineQueue !== undefined ? { enableOfflineQueue } : {}),
    ...(enableReadyCheck !== undefined ? { enableReadyCheck } : {}),
    // ioredis calls it clusterRetryStrategy for the cluster as a whole (null = give up).
    ...(retryStrategy ? { clusterRetryStrategy: (times: number) => retryStrategy(times) ?? null } : {}),
    // TLS nodes are reached by the names the cluster announces, unresolved, so their certificates match
    // (https://github.com/redis/ioredis#special-note-aws-elasticache-clusters-with-tls).
    ...(target.tls
      ? { dnsLookup: (address: string, callback: (err: null, address: string) => void) => callback(null, address) }
      : {}),
  };
  // https://github.com/redis/ioredis#cluster
  return new Cluster(target.nodes, options) as unknown as Redis;
}

/** A client made by createRedisClient for a Redis Cluster (ioredis sets `isCluster` on its Cluster). */
export function isCluster(redis: Redis): boolean {
  return (redis as unknown as { isCluster?: boolean }).isCluster === true;
}

/**
 * The nodes that own data: the master of each shard on a Cluster (known once the client has read the
 * slot map, so this waits for it to be ready), else the one Redis.
 */
export async function dataNodes(redis: Redis): Promise<Redis[]> {
  if (!isCluster(redis)) return [redis];
  const cluster = redis as unknown as Cluster;
  if (cluster.status === 'end' || cluster.status === 'close') throw new Error('the Redis Cluster connection is closed');
  if (cluster.status !== 'ready') {
    if (cluster.status === 'wait') void cluster.connect().catch(() => {});
    await new Promise<void>((resolve, reject) => {
      const ready = () => {
        cluster.off('end', ended);
        resolve();
      };
      const ended = () => {
        cluster.off('ready', ready);
        reject(new Error('the Redis Cluster connection ended before it was ready'));
      };
      cluster.once('ready', ready);
      cluster.once('end', ended);
    });
  }
  return cluster.nodes('master');
}

/**
 * Every key matching `pattern`, in batches: SCAN answers for one node only, so on a Cluster each master
 * is scanned (https://redis.io/docs/latest/commands/scan/, "Cluster"). `type` filters by Redis type.
 */
export async function* scanKeys(
  redis: Redis,
  pattern: string,
  options: { count?: number; type?: string } = {},
): AsyncGenerator<string[]> {
  for (const node of await dataNodes(redis)) {
    let cursor = '0';
    do {
      const [next, keys] = options.type
        ? await node.scan(cursor, 'MATCH', pattern, 'COUNT', options.count ?? 1000, 'TYPE', options.type)
        : await node.scan(cursor, 'MATCH', pattern, 'COUNT', options.count ?? 1000);
      cursor = next;
      if (keys.length) yield keys;
    } while (cursor !== '0');
  }
}

/**
 * One connection attempt and a PING, no retries, before any long-lived connection is opened: a Redis
 * that refuses, does not resolve or rejects the password gets one clear line instead of ioredis
 * reconnecting forever and dumping its error events (whose AUTH command carries the password).
 */
export async function checkRedisReachable(url: string, timeoutMs = 3000): Promise<void> {
  const target = parseRedisUrl(url);
  const r = createRedisClient(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    // Sentinel: a master name no sentinel knows, or no sentinel answering, ends the attempt too.
    sentinelRetryStrategy: () => null,
    connectTimeout: timeoutMs,
    enableOfflineQueue: false,
  });
  let reason: string | undefined;
  r.on('error', (err: Error) => (reason = err.message));
  // A Cluster only says it failed (ClusterAllFailedError); a node's own error may come on 'node error'.
  r.on('node error', (err: Error) => (reason = err.message));
  try {
    await r.connect();
    await r.ping();
    if (target.kind === 'cluster') {
      const info = await r.cluster('INFO');
      if (!/cluster_state:ok/.test(info))
        throw new Error('the cluster is not ready (CLUSTER INFO: cluster_state is not ok)');
    }
  } catch (err) {
    let why = reason ?? (err instanceof Error ? err.message : String(err));
    if (
      target.kind === 'cluster' &&
      /Failed to refresh slots cache|None of startup nodes|Connection is closed/i.test(why)
    )
      why = (await seedNodeError(target.nodes[0]!, target, timeoutMs)) ?? why;
    // ioredis asks each sentinel through a client of its own whose errors it drops: a sentinel that refuses
    // the connection or whose certificate is not trusted comes back only as "Connection is closed".
    if (target.kind === 'sentinel' && /All sentinels are unreachable.*Connection is closed/i.test(why))
      why =
        (await seedNodeError(
          target.sentinels[0]!,
          { password: target.sentinelPassword, tls: target.tls },
          timeoutMs,
        )) ?? why;
    // OpenSSL's messages end in a newline; the error is one line.
    why = why.replace(/\s+/g, ' ').trim();
    throw new ConfigError(
      `cannot connect to Redis at ${redactUrlCredentials(url)}: ${redactUrlCredentials(why)}${connectHint(why, usesTls(target))}`,
    );
  } finally {
    r.disconnect();
  }
}

/**
 * Why the first seed node of a Cluster (or the first Sentinel) refuses a connection, asked of it directly
 * by a plain client with the same address, credentials and TLS. The Cluster client reads the slot map, and
 * the Sentinel client asks where the master is, through connections of their own whose errors (a
 * certificate not trusted, a wrong password, a refused connection) they do not pass on: they report only
 * "Failed to refresh slots cache" / "Connection is closed". Undefined when that node answers.
 */
async function seedNodeError(
  seed: { host: string; port: number },
  target: { username?: string; password?: string; tls: boolean },
  timeoutMs: number,
): Promise<string | undefined> {
  const r = new Redis({
    host: seed.host,
    port: seed.port,
    username: target.username,
    password: target.password,
    ...(target.tls ? { tls: {} } : {}),
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: timeoutMs,
    enableOfflineQueue: false,
  });
  // The first error is the cause; "Connection is closed" follows it.
  let reason: string | undefined;
  r.on('error', (err: Error) => (reason ??= err.message));
  try {
    await r.connect();
    await r.ping();
    return undefined;
  } catch (err) {
    return `${seed.host}:${seed.port}: ${reason ?? (err instanceof Error ? err.message : String(err))}`;
  } finally {
    r.disconnect();
  }
}

function usesTls(target: RedisTarget): boolean {
  return target.kind === 'standalone' ? /^rediss:/i.test(target.url) : target.tls;
}

/** What to check, for the connection errors whose message alone does not say. */
function connectHint(why: string, tls: boolean): string {
  if (/WRONGPASS|NOAUTH|invalid password/i.test(why)) return ' — check the password in redis.url / REDIS_URL';
  // Node's TLS errors. erp-sync presents no client certificate: a server that requires one refuses it,
  // with an alert (`certificate required`) or by closing the connection.
  const clientCertificates =
    'erp-sync presents no client certificate: set tls-auth-clients optional (or no) on the server';
  if (/certificate required/i.test(why))
    return ` — the server requires a client certificate (tls-auth-clients yes); ${clientCertificates}`;
  if (/altnames/i.test(why))
    return " — the server's TLS certificate does not name that host: connect by a name or IP address the certificate lists";
  if (/certificate|unable to verify|UNABLE_TO_|CERT_/i.test(why))
    return " — the server's TLS certificate is not trusted: if a private CA signed it, set NODE_EXTRA_CA_CERTS=/path/to/ca.pem in the environment of erp-sync";
  if (/ECONNRESET|Connection is closed|socket hang up/i.test(why))
    return tls
      ? ` — the server closed the connection: if it requires client certificates (tls-auth-clients yes), ${clientCertificates}`
      : // A plain-text client on a TLS port: the server drops it at the first bytes.
        ' — the server closed the connection: if that port speaks TLS, use rediss://';
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|timed? ?out/i.test(why))
    return ` — is Redis running there${tls ? ', and does that port speak TLS (redis:// for one that does not)' : ''}? (unset REDIS_URL to use 127.0.0.1:6379 or a redis-server of its own)`;
  if (/cluster support disabled/i.test(why)) return ' — that Redis is not a cluster node: use redis:// for it';
  return '';
}

/**
 * Without an 'error' listener ioredis prints every connection error with the failed command, and the
 * AUTH command's argument is the password. Errors still reach callers through their rejected commands;
 * long-running processes log them (redacted) through the runtime's listener.
 */
function quiet(r: Redis): Redis {
  r.on('error', () => {});
  if (isCluster(r)) r.on('node error', () => {});
  return r;
}

/** Producer connections fail fast: a queue.add() must not wait forever for a reconnect. */
export function producerConnection(url: string, extra: RedisOptions = {}): Redis {
  return quiet(
    createRedisClient(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true, ...extra }),
  );
}

/** Worker connections: BullMQ requires maxRetriesPerRequest null for its blocking commands. */
export function workerConnection(url: string, extra: RedisOptions = {}): Redis {
  return quiet(createRedisClient(url, { maxRetriesPerRequest: null, ...extra }));
}

/**
 * Plain connection for our own keys (ledger, checkpoints, quotas, tokens). Auto-pipelined: the commands
 * the upsert jobs running at once issue in one event-loop turn (their record locks, ledger writes,
 * billing slots) go out in one socket write instead of one write each, which was the largest part of
 * the pipeline's own CPU per record (docs/benchmarks.md). Order per connection is kept; nothing on this
 * connection blocks (no BLPOP, no SUBSCRIBE), and MULTI blocks are sent as they are.
 */
export function stateConnection(url: string, extra: RedisOptions = {}): Redis {
  return quiet(createRedisClient(url, { maxRetriesPerRequest: 3, enableAutoPipelining: true, ...extra }));
}

/**
 * BullMQ only warns on an eviction policy other than noeviction; we refuse to start: an evicted lock or
 * job hash loses records silently. Managed Redis often disables CONFIG, so INFO is the fallback. On a
 * Cluster every master is asked (each has its own setting); the first that is not noeviction is named.
 */
export async function evictionPolicy(redis: Redis): Promise<string> {
  const policies = await Promise.all((await dataNodes(redis)).map(nodeEvictionPolicy));
  return policies.find((p) => p !== 'noeviction') ?? policies[0] ?? 'unknown';
}

async function nodeEvictionPolicy(redis: Redis): Promise<string> {
  try {
    const r = (await redis.config('GET', 'maxmemory-policy')) as string[];
    if (r[1]) return r[1];
  } catch {
    /* CONFIG disabled: fall through */
  }
  const info = await redis.info('memory');
  const m = /maxmemory_policy:(\S+)/.exec(info);
  return m?.[1] ?? 'unknown';
}

export async function assertNoEviction(redis: Redis): Promise<void> {
  const policy = await evictionPolicy(redis);
  if (policy !== 'noeviction') {
    throw new ConfigError(
      `Redis maxmemory-policy is "${policy}"; erp-sync needs "noeviction" (an evicted job or lock loses records). ` +
        `Set it with: redis-cli CONFIG SET maxmemory-policy noeviction (and in redis.conf${isCluster(redis) ? ', on every node of the cluster' : ''})`,
    );
  }
}

/**
 * Deletes every key under `<prefix>:` (a demo's or a benchmark's own keys; tests' unique prefixes), and
 * on a Cluster the queue keys under `{<prefix>:…}` too (src/pipeline/keys.ts, queuePrefix). One key per
 * DEL: the keys of one batch may live in different slots.
 */
export async function deleteKeysWithPrefix(redis: Redis, prefix: string): Promise<number> {
  let deleted = 0;
  for (const pattern of isCluster(redis) ? [`${prefix}:*`, `{${prefix}:*`] : [`${prefix}:*`]) {
    for await (const keys of scanKeys(redis, pattern)) {
      if (!isCluster(redis)) deleted += await redis.del(...keys);
      else deleted += (await Promise.all(keys.map((k) => redis.del(k)))).reduce((a, b) => a + b, 0);
    }
  }
  return deleted;
}
