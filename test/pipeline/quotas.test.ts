import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParkedError } from '../../src/errors/index.js';
import { stateKeys } from '../../src/pipeline/keys.js';
import { withQuotaWaitPolicy } from '../../src/pipeline/quota-wait-policy.js';
import { Quotas } from '../../src/pipeline/quotas.js';
import { manualWait } from '../support/manual-wait.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

/** Vendor quotas as the vendors count them: rolling windows, shared in Redis by every process. */
describe('Quotas', () => {
  const prefix = testPrefix('quotas');
  const keys = stateKeys(prefix);
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
  const at = (iso: string) => Date.parse(iso);

  it('given 5 a minute shared by two processes, taken at :50, when a 6th asks at :05 of the next calendar minute, then it waits until the first call is 60 s old', async () => {
    let now = at('2026-11-21T10:00:50Z');
    const clock = manualWait();
    const qa = new Quotas(a, keys, () => now, clock.wait);
    const qb = new Quotas(b, keys, () => now, clock.wait);
    const limits = { perMinute: 5, concurrency: 100 };
    for (let i = 0; i < 3; i++) (await qa.acquire('roll', limits))();
    for (let i = 0; i < 2; i++) (await qb.acquire('roll', limits))();
    now = at('2026-11-21T10:01:05Z');
    const pending = qb.acquire('roll', limits);
    // A fixed calendar minute would let it through now (a burst of 10 within 15 s): a rolling one does not.
    expect(await clock.waiting()).toBe(1_000); // waits in steps of at most 1 s
    now = at('2026-11-21T10:01:50.001Z');
    clock.release();
    (await pending)();
    expect((await qa.usage('roll')).minute).toBe(1);
  });

  it('given an app month of 3 calls shared by two connections of the app, when a fourth is asked for, then it is refused before it is sent, that connection is parked until the month ends, and the next month starts at zero', async () => {
    // The month is the real clock's: Redis expires the month's counter a week after its month ends by its
    // own clock, so a month fixed in the past would have its counter expire as it is written.
    const real = new Date();
    const monthStart = Date.UTC(real.getUTCFullYear(), real.getUTCMonth(), 1);
    const nextMonth = Date.UTC(real.getUTCFullYear(), real.getUTCMonth() + 1, 1);
    const label = new Date(monthStart).toISOString().slice(0, 7);
    let now = nextMonth - 3_600_000;
    const q = new Quotas(a, keys, () => now, manualWait().wait);
    const limits = { perMinute: 1000, concurrency: 100, month: { app: 'month-app', budget: 3 } };
    (await q.acquire('realm-1', limits))();
    (await q.acquire('realm-2', limits))();
    (await q.acquire('realm-2', limits))();
    expect(await q.monthUsage('month-app')).toBe(3);
    const refused = await q.acquire('realm-1', limits).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ParkedError);
    expect((refused as ParkedError).untilMs).toBe(nextMonth);
    expect((refused as ParkedError).message).toContain(`app month-app spent its 3 calls of ${label}`);
    expect(await q.monthUsage('month-app')).toBe(3);
    expect(Math.abs((await q.parkedUntil('realm-1'))! - nextMonth)).toBeLessThan(1000);
    // The slot it took for the refused call is given back.
    expect((await q.usage('realm-1')).inflight).toBe(0);
    now = nextMonth + 1_000;
    expect(await q.monthUsage('month-app')).toBe(0);
    (await q.acquire('realm-2', limits))();
    expect(await q.monthUsage('month-app')).toBe(1);
  });

  it('given concurrency 2, then a third caller waits until a slot is released', async () => {
    const clock = manualWait();
    const q = new Quotas(a, keys, Date.now, clock.wait);
    const limits = { perMinute: 1000, concurrency: 2 };
    const r1 = await q.acquire('conc', limits);
    await q.acquire('conc', limits);
    let third = false;
    const p = q.acquire('conc', limits).then((r) => {
      third = true;
      return r;
    });
    await clock.waiting();
    expect(third).toBe(false);
    r1();
    clock.release();
    (await p)();
    expect(third).toBe(true);
  });

  it('given 3 a day spent at 23:59 UTC, when asked just after midnight, then the day is still spent (rolling 24 h) until 24 h after the first call', async () => {
    let now = at('2026-11-21T23:59:10Z');
    const q = new Quotas(a, keys, () => now);
    const limits = { perMinute: 100, perDay: 3, concurrency: 10 };
    for (let i = 0; i < 3; i++) (await q.acquire('day', limits))();
    now = at('2026-11-22T00:01:00Z');
    const refused = await q.acquire('day', limits).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ParkedError);
    // The minute bucket 23:59 stops counting at 23:59 the next day.
    expect((refused as ParkedError).untilMs).toBe(at('2026-11-22T23:59:00Z'));
    now = at('2026-11-22T23:59:00Z');
    (await q.acquire('day', limits))();
    expect((await q.usage('day')).day).toBe(1);
  });

  it('given a connection parked until a time, then only that connection waits', async () => {
    const q = new Quotas(a, keys);
    await q.park('parked', Date.now() + 60_000);
    await expect(q.acquire('parked', { perMinute: 100, concurrency: 10 })).rejects.toBeInstanceOf(ParkedError);
    (await q.acquire('other', { perMinute: 100, concurrency: 10 }))();
    expect(await q.parkedUntil('parked')).toBeGreaterThan(Date.now());
  });

  it('given the vendor says 2 calls are left in its minute while our count leaves 10, when observed, then only 2 more are taken before a wait', async () => {
    const now = at('2026-11-21T11:00:00Z');
    const clock = manualWait();
    const q = new Quotas(a, keys, () => now, clock.wait);
    const limits = { perMinute: 10, concurrency: 10 };
    expect(await q.observe('vendor-count', limits, 'minute', 2)).toBe(8);
    (await q.acquire('vendor-count', limits))();
    (await q.acquire('vendor-count', limits))();
    const ctl = new AbortController();
    const third = q.acquire('vendor-count', limits, { signal: ctl.signal });
    expect(await clock.waiting()).toBe(1_000);
    // A vendor that says more is left than we count changes nothing: our count only ever goes up.
    expect(await q.observe('vendor-count', limits, 'minute', 9)).toBe(0);
    expect((await q.usage('vendor-count')).minute).toBe(10);
    ctl.abort(new Error('stop'));
    await expect(third).rejects.toThrow('stop');
  });

  it('given a configured minute of a million calls and a vendor saying 59 are left, when observed, then at most 5,000 calls are added to the log, in one short script', async () => {
    const now = at('2026-11-21T12:00:00Z');
    const q = new Quotas(a, keys, () => now, manualWait().wait);
    // Uncapped, this top-up was 999,941 ZADDs in one script: Redis answered BUSY to everyone for seconds.
    expect(await q.observe('huge-limit', { perMinute: 1_000_000, concurrency: 8 }, 'minute', 59)).toBe(5_000);
    expect((await q.usage('huge-limit')).minute).toBe(5_000);
    const slow = (await a.slowlog('GET', 128)) as Array<[number, number, number, string[]]>;
    const ours = slow.filter((e) => e[3].some((arg) => String(arg).includes(keys.quotaMinute('huge-limit'))));
    // SLOWLOG durations are in microseconds; 1 s would already be a stall for every client of this Redis.
    for (const e of ours) expect(e[2]).toBeLessThan(1_000_000);
  });

  describe('fair scheduling', () => {
    const policy = (deferrable: boolean) => ({ maxInPlaceWaitMs: 1_000, deferrable: () => deferrable });

    it('given a job that can give its slot back and a spent minute, when it asks, then it is told when its slot frees instead of waiting', async () => {
      let now = at('2026-11-21T12:00:00Z');
      const clock = manualWait();
      const q = new Quotas(a, keys, () => now, clock.wait);
      const limits = { perMinute: 2, concurrency: 10 };
      (await q.acquire('fair', limits))();
      now += 20_000;
      (await q.acquire('fair', limits))();
      now += 5_000;
      const deferred = await withQuotaWaitPolicy(policy(true), () => q.acquire('fair', limits)).catch(
        (e: unknown) => e,
      );
      expect(deferred).toBeInstanceOf(ParkedError);
      expect((deferred as ParkedError).untilMs).toBe(at('2026-11-21T12:01:00Z'));
    });

    it('given a job whose read would start over, when the minute is spent, then it waits in place', async () => {
      const now = at('2026-11-21T13:00:00Z');
      const clock = manualWait();
      const q = new Quotas(a, keys, () => now, clock.wait);
      const limits = { perMinute: 1, concurrency: 10 };
      (await q.acquire('in-place', limits))();
      const ctl = new AbortController();
      const pending = withQuotaWaitPolicy(policy(false), () => q.acquire('in-place', limits, { signal: ctl.signal }));
      expect(await clock.waiting()).toBe(1_000);
      ctl.abort(new Error('stop'));
      await expect(pending).rejects.toThrow('stop');
    });

    it('given concurrency 2 held by other callers, when a deferrable job has waited past its in-place wait for a slot, then it is told to come back instead of waiting', async () => {
      const q = new Quotas(a, keys, Date.now, () => new Promise((resolve) => setImmediate(resolve)));
      const limits = { perMinute: 1000, concurrency: 2 };
      const others = [await q.acquire('busy-others', limits), await q.acquire('busy-others', limits)];
      const deferred = await withQuotaWaitPolicy({ maxInPlaceWaitMs: 100, deferrable: () => true }, () =>
        q.acquire('busy-others', limits),
      ).catch((e: unknown) => e);
      expect(deferred).toBeInstanceOf(ParkedError);
      for (const release of others) release();
    });

    it('given concurrency 2 held by two calls of the job itself, when its third call has waited past its in-place wait, then it waits on (its own calls free the slots: deferring would throw their reads away) and takes the slot one of them frees', async () => {
      const limits = { perMinute: 1000, concurrency: 2 };
      const own: Array<() => void> = [];
      let polls = 0;
      // Each poll of the third call is a wait; at the 20th (0.5 s of 25 ms polls, past the 100 ms in-place
      // wait) one of the job's own calls ends.
      const q = new Quotas(a, keys, Date.now, () => {
        if (++polls === 20) own[0]!();
        return new Promise((resolve) => setImmediate(resolve));
      });
      const job = { maxInPlaceWaitMs: 100, deferrable: () => true };
      const third = await withQuotaWaitPolicy(job, async () => {
        own.push(await q.acquire('busy-own', limits), await q.acquire('busy-own', limits));
        return q.acquire('busy-own', limits);
      });
      expect(polls).toBeGreaterThanOrEqual(20);
      expect((await q.usage('busy-own')).inflight).toBe(2);
      third();
      own[1]!();
    });

    it('given a wait shorter than the in-place wait, then even a deferrable job waits in place', async () => {
      let now = at('2026-11-21T14:00:00Z');
      const clock = manualWait();
      const q = new Quotas(a, keys, () => now, clock.wait);
      const limits = { perMinute: 1, concurrency: 10 };
      (await q.acquire('short', limits))();
      now += 59_500;
      const pending = withQuotaWaitPolicy(policy(true), () => q.acquire('short', limits));
      expect(await clock.waiting()).toBe(500);
      now += 500;
      clock.release();
      (await pending)();
    });
  });
});
