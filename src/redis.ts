import { spawn, type ChildProcess } from 'node:child_process';
import { connect as netConnect } from 'node:net';
import { freePort } from './http/free-port.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis, type RedisOptions } from 'ioredis';
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
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'], {
      stdio: 'ignore',
    });
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
 * One connection attempt and a PING, no retries, before any long-lived connection is opened: a Redis
 * that refuses, does not resolve or rejects the password gets one clear line instead of ioredis
 * reconnecting forever and dumping its error events (whose AUTH command carries the password).
 */
export async function checkRedisReachable(url: string, timeoutMs = 3000): Promise<void> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: timeoutMs, enableOfflineQueue: false });
  let reason: string | undefined;
  r.on('error', (err: Error) => (reason = err.message));
  try {
    await r.connect();
    await r.ping();
  } catch (err) {
    const why = reason ?? (err instanceof Error ? err.message : String(err));
    const hint = /WRONGPASS|NOAUTH|invalid password/i.test(why)
      ? ' — check the password in redis.url / REDIS_URL'
      : /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|timed? ?out/i.test(why)
        ? ' — is Redis running there? (unset REDIS_URL to use 127.0.0.1:6379 or a redis-server of its own)'
        : '';
    throw new ConfigError(`cannot connect to Redis at ${redactUrlCredentials(url)}: ${redactUrlCredentials(why)}${hint}`);
  } finally {
    r.disconnect();
  }
}

/**
 * Without an 'error' listener ioredis prints every connection error with the failed command, and the
 * AUTH command's argument is the password. Errors still reach callers through their rejected commands;
 * long-running processes log them (redacted) through the runtime's listener.
 */
function quiet(r: Redis): Redis {
  r.on('error', () => {});
  return r;
}

/** Producer connections fail fast: a queue.add() must not wait forever for a reconnect. */
export function producerConnection(url: string, extra: RedisOptions = {}): Redis {
  return quiet(new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true, ...extra }));
}

/** Worker connections: BullMQ requires maxRetriesPerRequest null for its blocking commands. */
export function workerConnection(url: string, extra: RedisOptions = {}): Redis {
  return quiet(new Redis(url, { maxRetriesPerRequest: null, ...extra }));
}

/** Plain connection for our own keys (ledger, checkpoints, quotas, tokens). */
export function stateConnection(url: string, extra: RedisOptions = {}): Redis {
  return quiet(new Redis(url, { maxRetriesPerRequest: 3, ...extra }));
}

/**
 * BullMQ only warns on an eviction policy other than noeviction; we refuse to start: an evicted lock or
 * job hash loses records silently. Managed Redis often disables CONFIG, so INFO is the fallback.
 */
export async function evictionPolicy(redis: Redis): Promise<string> {
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
        'Set it with: redis-cli CONFIG SET maxmemory-policy noeviction (and in redis.conf)',
    );
  }
}

/** Deletes every key under `<prefix>:` (a demo's or a benchmark's own keys; tests' unique prefixes). */
export async function deleteKeysWithPrefix(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) deleted += await redis.del(...keys);
  } while (cursor !== '0');
  return deleted;
}
