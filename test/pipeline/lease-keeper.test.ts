import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/observability/logger.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { ConnectionSlots } from '../../src/pipeline/connection-slots.js';
import { stateKeys } from '../../src/pipeline/keys.js';
import { type Lease, LeaseKeeper } from '../../src/pipeline/lease-keeper.js';
import { UpsertState } from '../../src/pipeline/upsert-state.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

/**
 * The lease keeper against real Redis, its one timer faked (setInterval): each test advances time by
 * a renewal period, then pings Redis so the renewal sent on the tick has been answered.
 */
describe('the lease keeper', () => {
  const prefix = testPrefix('lease-keeper');
  const keys = stateKeys(prefix);
  let redis: Redis;
  let state: UpsertState;
  let slots: ConnectionSlots;
  let lines: string[];
  let metrics: ReturnType<typeof createMetrics>;
  let keeper: LeaseKeeper;

  /** The job's record locks as the upsert jobs track them: renewed by their owner, held = every key extended. */
  const recordLocks = (erpIds: string[], owner: string, ttlMs = 60_000, store: UpsertState = state): Lease => ({
    kind: 'record-locks',
    owner,
    ttlMs,
    renew: async () => (await store.extendLocks('c', 'invoices', erpIds, ttlMs, owner)) === erpIds.length,
  });
  const failures = async (kind: string) =>
    (await metrics.leaseRenewalsFailed.get()).values.find((v) => v.labels.kind === kind)?.value ?? 0;
  const warnings = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.level === 40);

  beforeAll(async () => {
    redis = await connect();
    state = new UpsertState(redis, keys);
    slots = new ConnectionSlots(redis, keys);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await dropPrefix(redis, prefix);
  });
  afterAll(async () => {
    await redis.quit();
  });

  const setUp = () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    lines = [];
    metrics = createMetrics();
    keeper = new LeaseKeeper({
      logger: createLogger({
        level: 'info',
        format: 'json',
        destination: { write: (s: string) => void lines.push(s) },
      }),
      metrics,
    });
  };

  it("given a job's record locks and its connection slot tracked, when their TTLs would run out, then both are taken again for their whole TTL", async () => {
    setUp();
    await state.beginMany('c', 'invoices', [{ erpId: 'inv-1' }, { erpId: 'inv-2' }], 60_000, 'job-1');
    expect(await slots.take('c', 'job-1', 2, 30_000)).toBe(true);
    keeper.track(recordLocks(['inv-1', 'inv-2'], 'job-1'));
    keeper.track({
      kind: 'job-slot',
      owner: 'job-1',
      ttlMs: 30_000,
      renew: () => slots.take('c', 'job-1', Number.MAX_SAFE_INTEGER, 30_000),
    });
    // Nearly the whole TTL has passed: 50 ms of each lock are left.
    for (const id of ['inv-1', 'inv-2']) await redis.pexpire(keys.recordLock('c', 'invoices', id), 50);
    // One tick: a third of the shortest TTL (the slot's 30 s).
    await vi.advanceTimersByTimeAsync(10_000);
    await redis.ping();
    for (const id of ['inv-1', 'inv-2']) {
      expect(await redis.get(keys.recordLock('c', 'invoices', id))).toBe('job-1');
      expect(await redis.pttl(keys.recordLock('c', 'invoices', id))).toBeGreaterThan(50_000);
    }
    // The slot is still the job's: a second job of the connection fits beside it, not a third.
    expect(await slots.take('c', 'job-2', 2, 30_000)).toBe(true);
    expect(await slots.take('c', 'job-3', 2, 30_000)).toBe(false);
    expect(await failures('record-locks')).toBe(0);
    expect(warnings()).toEqual([]);
  });

  it('given a renewal that fails (its Redis connection closed), then it is reported (a warning with the kind and owner, and the counter), and tried again at the next tick', async () => {
    setUp();
    const gone = connect();
    await gone.quit();
    keeper.track(recordLocks(['inv-1'], 'job-7', 60_000, new UpsertState(gone, keys)));
    await vi.advanceTimersByTimeAsync(20_000);
    await keeper.renewAll(); // the tick's renewal has answered
    expect(await failures('record-locks')).toBeGreaterThanOrEqual(1);
    const [warning] = warnings();
    expect(warning).toMatchObject({
      lease: 'record-locks',
      owner: 'job-7',
      msg: 'lease renewal failed; tried again at the next tick',
    });
    const before = await failures('record-locks');
    await vi.advanceTimersByTimeAsync(20_000);
    await keeper.renewAll();
    expect(await failures('record-locks')).toBeGreaterThan(before);
  });

  it('given a lock another owner took after it expired, when the old holder renews, then the new owner keeps it and the loss is reported', async () => {
    setUp();
    await state.beginMany('c', 'invoices', [{ erpId: 'inv-1' }], 60_000, 'job-frozen');
    keeper.track(recordLocks(['inv-1'], 'job-frozen'));
    await redis.set(keys.recordLock('c', 'invoices', 'inv-1'), 'job-newer', 'PX', 60_000);
    await vi.advanceTimersByTimeAsync(20_000);
    await keeper.renewAll();
    expect(await redis.get(keys.recordLock('c', 'invoices', 'inv-1'))).toBe('job-newer');
    expect(await failures('record-locks')).toBeGreaterThanOrEqual(1);
    expect(warnings()[0]).toMatchObject({ lease: 'record-locks', owner: 'job-frozen' });
  });

  it('given a lease untracked, when its TTL runs out, then nothing renews it', async () => {
    setUp();
    await state.beginMany('c', 'invoices', [{ erpId: 'inv-1' }], 60_000, 'job-1');
    const untrack = keeper.track(recordLocks(['inv-1'], 'job-1'));
    await vi.advanceTimersByTimeAsync(20_000);
    await redis.ping();
    untrack();
    await redis.pexpire(keys.recordLock('c', 'invoices', 'inv-1'), 1_000);
    await vi.advanceTimersByTimeAsync(60_000);
    await redis.ping();
    expect(await redis.pttl(keys.recordLock('c', 'invoices', 'inv-1'))).toBeLessThanOrEqual(1_000);
    expect(vi.getTimerCount()).toBe(0); // nothing tracked: the keeper's timer is stopped
  });
});
