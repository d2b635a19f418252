import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BillingBudget } from '../../src/pipeline/billing-budget.js';
import { stateKeys } from '../../src/pipeline/keys.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

/**
 * The slots handed out on the log `key`, as Redis recorded them: `on(redis)` is a connection whose Lua scripts
 * each run in one MULTI with a read of the log after them. Read afterwards instead, the log may be gone: it is
 * pruned of what left the window and expires once its last slot has (PEXPIRE), which on a loaded machine can
 * come before the callers' waits end and the test reads it.
 */
function slotLog(key: string) {
  const slots = new Map<string, number>();
  let calls = 0;
  const inMulti =
    (redis: Redis, command: 'evalsha' | 'eval') =>
    async (...args: unknown[]): Promise<unknown> => {
      calls++;
      const multi = redis.multi();
      (multi[command] as (...a: unknown[]) => unknown).apply(multi, args);
      multi.zrange(key, 0, -1, 'WITHSCORES');
      const [[err, result], [, entries]] = (await multi.exec()) as [[Error | null, unknown], [Error | null, string[]]];
      if (err) throw err;
      for (let i = 0; i < entries.length; i += 2) slots.set(entries[i]!, Number(entries[i + 1]));
      return result;
    };
  return {
    on: (redis: Redis): Redis =>
      new Proxy(redis, {
        get: (target, prop, receiver) =>
          prop === 'evalsha' || prop === 'eval' ? inMulti(target, prop) : Reflect.get(target, prop, receiver),
      }),
    /** Each slot's time, in order (the pause's end left out). */
    times: () => [...slots].flatMap(([member, at]) => (member === 'pause' ? [] : [at])).sort((x, y) => x - y),
    /** Script calls made through `on` connections. */
    calls: () => calls,
  };
}

/** The deployment's billing budget: a sliding log in Redis, shared by every process. */
describe('BillingBudget', () => {
  const prefix = testPrefix('billing-budget');
  const key = stateKeys(prefix).billingRate();
  let a: Redis;
  let b: Redis;
  beforeAll(() => {
    a = connect();
    b = connect();
  });
  afterAll(async () => {
    await dropPrefix(a, prefix);
    await a.quit();
    await b.quit();
  });

  it('given 10 requests per 200 ms shared by two processes, when 45 ask at once, then no window of 200 ms holds more than 10 and 45 go in about 4 windows', async () => {
    const log = slotLog(key);
    const one = new BillingBudget(log.on(a), key, 10, 200);
    const two = new BillingBudget(log.on(b), key, 10, 200);
    const started = Date.now();
    await Promise.all(Array.from({ length: 45 }, (_, i) => (i % 2 ? one : two).take()));
    const elapsed = Date.now() - started;
    // The slot times as Redis recorded them (its own clock): every window of 200 ms, wherever it starts.
    const times = log.times();
    expect(times).toHaveLength(45);
    for (const t of times)
      expect(times.filter((u) => u >= t && u < t + 200).length, `window from ${t}`).toBeLessThanOrEqual(10);
    // Slots are handed out in successive windows (the guard makes each 210 ms): 45 = 4 full windows and a bit.
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(4 * 200);
    expect(elapsed).toBeGreaterThanOrEqual(4 * 200);
  });

  it('given a caller that aborts while it waits, then it rejects as aborted and the others still get their slots', async () => {
    const budget = new BillingBudget(a, `${key}:abort`, 2, 200);
    await budget.take();
    await budget.take();
    const ctl = new AbortController();
    const waiting = budget.take(ctl.signal);
    ctl.abort(new Error('shutting down'));
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    await expect(budget.take()).resolves.toBeUndefined();
  });

  it('given billing answered 429 with Retry-After and the budget was paused for it, when two processes ask for slots, then none is handed out before the pause ends, a shorter pause does not shorten it, and the window limit still holds after it', async () => {
    const k = `${key}:pause`;
    const log = slotLog(k);
    const one = new BillingBudget(log.on(a), k, 4, 200);
    const two = new BillingBudget(log.on(b), k, 4, 200);
    await one.take();
    const [sec, micro] = await a.time();
    const pausedAt = Number(sec) * 1000 + Math.floor(Number(micro) / 1000);
    await one.pause(400);
    await two.pause(100);
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? one : two).take()));
    const times = log.times();
    expect(times).toHaveLength(11);
    const after = times.slice(1);
    for (const t of after) expect(t).toBeGreaterThanOrEqual(pausedAt + 400);
    for (const t of times)
      expect(times.filter((u) => u >= t && u < t + 200).length, `window from ${t}`).toBeLessThanOrEqual(4);
  });
});

describe('BillingBudget, many callers of one process at once', () => {
  const prefix = testPrefix('billing-budget-shared');
  const key = stateKeys(prefix).billingRate();
  let redis: Redis;
  beforeAll(() => {
    redis = connect();
  });
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given 40 callers asking together, when their slots are handed out, then they share a few round trips, each gets a slot of its own, and no window holds more than the limit', async () => {
    // The budget's connection, counting the scripts it runs (a Redis new to the script adds its EVAL).
    const log = slotLog(key);
    const budget = new BillingBudget(log.on(redis), key, 10, 200);
    await Promise.all(Array.from({ length: 40 }, () => budget.take()));
    expect(log.calls()).toBeLessThanOrEqual(2);
    // One slot each: 40 members in the log.
    const times = log.times();
    expect(times).toHaveLength(40);
    for (const t of times)
      expect(times.filter((u) => u >= t && u < t + 200).length, `window from ${t}`).toBeLessThanOrEqual(10);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(3 * 200);
  });

  it('given the log refuses the round trip, then every caller sharing it rejects with its error, and the next callers are served', async () => {
    let fail = true;
    const flaky = new Proxy(redis, {
      get: (target, prop, receiver) =>
        prop === 'evalsha'
          ? (...args: unknown[]) => {
              if (fail) return Promise.reject(new Error('LOADING Redis is loading the dataset in memory'));
              return (target.evalsha as (...a: unknown[]) => unknown)(...args);
            }
          : Reflect.get(target, prop, receiver),
    });
    const budget = new BillingBudget(flaky, `${key}:refused`, 10, 200);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => budget.take()));
    expect(results.map((r) => r.status)).toEqual(Array(5).fill('rejected'));
    expect((results[0] as PromiseRejectedResult).reason.message).toMatch(/LOADING/);
    fail = false;
    await expect(budget.take()).resolves.toBeUndefined();
  });
});
