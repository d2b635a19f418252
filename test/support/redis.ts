import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createRedisClient, deleteKeysWithPrefix } from '../../src/redis.js';

/** The Redis the tests use: REDIS_URL, else the local one on 6379 (.ci/run starts one if none answers). */
export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A unique key prefix per test file/run, so runs never collide. */
export function testPrefix(name: string): string {
  return `test-${name}-${randomBytes(4).toString('hex')}`;
}

export function connect(url = TEST_REDIS_URL): Redis {
  // A redis+cluster:// URL gives a Cluster client (src/redis.ts), as the runtime's own connections.
  return createRedisClient(url, { maxRetriesPerRequest: 3, lazyConnect: false });
}

/** Deletes every key under a prefix (BullMQ keys are "<prefix>:<queue>:..."). */
export async function dropPrefix(redis: Redis, prefix: string): Promise<void> {
  await deleteKeysWithPrefix(redis, prefix);
}
