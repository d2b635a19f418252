import { spawnSync } from 'node:child_process';
import { checkRedisReachable, pings, startEmbeddedRedis } from '../../src/redis.js';

/**
 * The Redis a test run uses, found once before any test file starts (vitest globalSetup), in the order the
 * commands themselves use (src/redis.ts): REDIS_URL; else a Redis answering on 127.0.0.1:6379; else
 * `redis-server` from PATH on a free port, stopped when the run ends. The address goes in REDIS_URL, which
 * the test workers inherit and test/support/redis.ts reads, so every file and CLI child talks to that Redis.
 * redis-server must be on PATH in every case: the Cluster, Sentinel, TLS and restart tests start their own.
 */
export default async function redisForTheRun(): Promise<(() => Promise<void>) | undefined> {
  if (spawnSync('sh', ['-c', 'command -v redis-server']).status !== 0)
    stop(
      'erp-sync tests need redis-server on PATH (apt-get install redis-server, or brew install redis); none was found',
    );
  if (process.env.REDIS_URL) {
    await checkRedisReachable(process.env.REDIS_URL).catch((e: unknown) =>
      stop(`erp-sync tests: REDIS_URL: ${(e as Error).message}`),
    );
    return undefined;
  }
  if (await pings('127.0.0.1', 6379)) {
    process.env.REDIS_URL = 'redis://127.0.0.1:6379';
    return undefined;
  }
  const redis = await startEmbeddedRedis();
  process.env.REDIS_URL = redis.url;
  console.log(`no Redis on 127.0.0.1:6379: the tests use redis-server started on ${redis.url}`);
  return () => redis.stop();
}

/** One line on stderr and exit 1: a run without a usable Redis fails at once, not file by file. */
function stop(message: string): never {
  console.error(message);
  process.exit(1);
}
