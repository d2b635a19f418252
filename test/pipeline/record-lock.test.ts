import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { stateKeys } from '../../src/pipeline/keys.js';
import { RecordLock } from '../../src/pipeline/record-lock.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

describe('the incremental pull lock', () => {
  const prefix = testPrefix('pull-lock');
  const keys = stateKeys(prefix);
  const key = keys.recordLock('c', 'pull-invoices', 'incremental');
  let redis: Redis;
  let locks: RecordLock;

  beforeAll(async () => {
    redis = await connect();
    locks = new RecordLock(redis, keys);
  });
  afterEach(() => void vi.useRealTimers());
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given a pull holding it, when its TTL would run out, then the lock is taken again for the whole TTL and another pull still cannot take it', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const release = await locks.tryAcquireIncrementalPull('c', 'invoices', 'job-first-sync', 60_000);
    expect(release).toBeDefined();
    // The pull has run for nearly the whole TTL: 50 ms of the lock are left.
    await redis.pexpire(key, 50);
    await vi.advanceTimersByTimeAsync(20_000);
    await redis.ping(); // the renewal, sent on the timer, has been answered
    expect(await redis.pttl(key)).toBeGreaterThan(50_000);
    expect(await redis.get(key)).toBe('job-first-sync');
    expect(await locks.tryAcquireIncrementalPull('c', 'invoices', 'job-next-scheduled-pull', 60_000)).toBeUndefined();

    await release!();
    expect(await redis.exists(key)).toBe(0);
    // Released: no renewal takes it back.
    await vi.advanceTimersByTimeAsync(60_000);
    await redis.ping();
    expect(await redis.exists(key)).toBe(0);
    const next = await locks.tryAcquireIncrementalPull('c', 'invoices', 'job-next-scheduled-pull', 60_000);
    expect(next).toBeDefined();
    await next!();
  });

  it('given a lock another owner took after it expired, when the old holder renews, then the new owner keeps it', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const stale = await locks.tryAcquireIncrementalPull('c', 'invoices', 'job-frozen', 60_000);
    await redis.set(key, 'job-newer', 'PX', 60_000);
    await vi.advanceTimersByTimeAsync(20_000);
    await redis.ping();
    expect(await redis.get(key)).toBe('job-newer');
    await stale!();
    expect(await redis.get(key)).toBe('job-newer');
    await redis.del(key);
  });
});
