import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BillingBudget } from '../../src/pipeline/billing-budget.js';
import { stateKeys } from '../../src/pipeline/keys.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

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
    const one = new BillingBudget(a, key, 10, 200);
    const two = new BillingBudget(b, key, 10, 200);
    const started = Date.now();
    await Promise.all(Array.from({ length: 45 }, (_, i) => (i % 2 ? one : two).take()));
    const elapsed = Date.now() - started;
    // The slot times as Redis recorded them (its own clock): every window of 200 ms, wherever it starts.
    const times = (await a.zrange(key, 0, -1, 'WITHSCORES')).filter((_, i) => i % 2 === 1).map(Number);
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
    const one = new BillingBudget(a, k, 4, 200);
    const two = new BillingBudget(b, k, 4, 200);
    await one.take();
    const [sec, micro] = await a.time();
    const pausedAt = Number(sec) * 1000 + Math.floor(Number(micro) / 1000);
    await one.pause(400);
    await two.pause(100);
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? one : two).take()));
    const entries = await a.zrange(k, 0, -1, 'WITHSCORES');
    const times = entries.flatMap((v, i) => (i % 2 === 0 && v !== 'pause' ? [Number(entries[i + 1])] : []));
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
    let calls = 0;
    // The budget's connection, counting the scripts it runs.
    const counted = new Proxy(redis, {
      get: (target, prop, receiver) =>
        prop === 'evalsha'
          ? (...args: unknown[]) => {
              calls++;
              return (target.evalsha as (...a: unknown[]) => unknown)(...args);
            }
          : Reflect.get(target, prop, receiver),
    });
    const budget = new BillingBudget(counted, key, 10, 200);
    await Promise.all(Array.from({ length: 40 }, () => budget.take()));
    expect(calls).toBeLessThanOrEqual(2);
    const entries = await redis.zrange(key, 0, -1, 'WITHSCORES');
    const members = entries.filter((_, i) => i % 2 === 0);
    const times = entries.filter((_, i) => i % 2 === 1).map(Number);
    expect(new Set(members).size).toBe(40);
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
