import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';
import { LuaScript } from './lua-script.js';
import { currentQuotaWaitPolicy, type QuotaWaitPolicy } from './quota-wait-policy.js';
import { ParkedError } from '../errors/index.js';
import { calendarMonth, decideAppMonthSpent } from '../waits/app-month-waits.js';
import { decideQuotaSlot, quotaLaneRule } from '../waits/vendor-waits.js';

export interface QuotaLimits {
  /** Calls in any rolling 60 s. */
  perMinute: number;
  /** Calls in any rolling 24 h; 0 or undefined: no daily cap. */
  perDay?: number;
  concurrency: number;
  /**
   * A budget of calls per calendar month (UTC) shared by every connection of one app (QuickBooks' read
   * calls per client id): past it the connection is parked until the month ends.
   */
  month?: { app: string; budget: number };
}

// One atomic check-and-take: [what, ms] (take-quota-6.lua): a slot taken, or what to wait for and how long.
const TAKE = LuaScript.load('take-quota-6');
const TAKEN = 0;
const CONCURRENCY = 2;
const PACED = 3;
const PARKED = 4;
/** How long past its wait an announced read counts as waiting (its next poll, or its job's return from a park). */
const ANNOUNCED_WAITER_TTL_MS = 2_000;
const OBSERVE = LuaScript.load('observe-quota-2');
const PARK = LuaScript.load('park-connection-1');
const TAKE_MONTH = LuaScript.load('take-month-call-1');

/** The UTC calendar month an app's calls are counted in (its rule: src/waits/app-month-waits.ts). */
export { calendarMonth };

/** Waits `ms` (or until `signal` aborts): injectable, so tests drive waits without sleeping. */
export type Wait = (ms: number, signal?: AbortSignal) => Promise<unknown>;
const realWait: Wait = (ms, signal) => sleep(ms, undefined, { signal });

/** A parked connection's slot request: the job is delayed until the park ends (jobs/define-job.ts). */
export const QuotaParkedError = ParkedError;

/**
 * Per-connection vendor quotas held in Redis, shared by every job type and every process: N replicas
 * behave like one. Windows roll as the vendors' do (take-quota-4.lua): the calls of the last 60 s and of
 * the last 24 h, never a calendar minute that lets 2 × the limit through across its edge. Concurrency is
 * a set of leases that expire. The vendor's own remaining-quota headers override our count (`observe`).
 * When calls wait, announced reads get the slots before history (the job's lane: `quotaLaneRule`).
 */
export class Quotas {
  /** Slots held now by the calls of each job (its quota wait policy): see the concurrency wait in `acquire`. */
  private readonly heldByJob = new WeakMap<QuotaWaitPolicy, number>();

  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
    private readonly now: () => number = Date.now,
    private readonly wait: Wait = realWait,
  ) {}

  /**
   * Takes a slot, waiting in place for it when the wait is short or the job cannot give its worker slot
   * back (see quota-wait-policy.ts). Throws ParkedError when the connection is parked or its day is
   * spent (beyond `maxParkWaitMs`), and when a deferrable job would wait longer than its in-place wait:
   * the job is then delayed until its slot instead of holding a worker.
   */
  async acquire(
    connection: string,
    limits: QuotaLimits,
    options: { signal?: AbortSignal; leaseTtlMs?: number; maxParkWaitMs?: number; policy?: QuotaWaitPolicy } = {},
  ): Promise<() => void> {
    const lease = randomUUID();
    const policy = options.policy ?? currentQuotaWaitPolicy();
    let waitedForConcurrency = 0;
    for (;;) {
      options.signal?.throwIfAborted();
      const now = this.now();
      const [what, ms] = await this.take(connection, limits, lease, now, options.leaseTtlMs, policy);
      if (what === TAKEN) {
        if (limits.month) await this.takeMonthCall(connection, limits.month, lease, now);
        return this.granted(connection, lease, policy);
      }
      // Concurrency slots come free as calls finish: poll. Minute slots and history's pace free at a known
      // instant. What to do is decided in src/waits/vendor-waits.ts.
      const parked = what === PARKED;
      const concurrency = what === CONCURRENCY;
      const decision = decideQuotaSlot({
        waitMs: concurrency ? Math.max(ms, waitedForConcurrency) : ms,
        parked,
        concurrency,
        paced: what === PACED,
        maxParkWaitMs: options.maxParkWaitMs ?? 0,
        policy,
        waitingOnItself: concurrency && policy !== undefined && (this.heldByJob.get(policy) ?? 0) > 0,
      });
      if (decision.kind === 'park') {
        throw new ParkedError(connection, now + decision.waitMs, {
          why: decision.why,
          spacingMs: parked ? undefined : 60_000 / limits.perMinute,
        });
      }
      if (parked) {
        await this.wait(ms, options.signal);
        continue;
      }
      const step = Math.min(ms, 1_000);
      if (concurrency) waitedForConcurrency += step;
      await this.wait(step, options.signal);
    }
  }

  /** One check-and-take in the job's lane: [what, ms]. */
  private async take(
    connection: string,
    limits: QuotaLimits,
    lease: string,
    now: number,
    leaseTtlMs = 120_000,
    policy?: QuotaWaitPolicy,
  ): Promise<[number, number]> {
    const lane = policy?.lane?.() ?? 'current';
    const { paceMs, yieldPaceMs } = quotaLaneRule(lane, limits.perMinute);
    const k = this.keys;
    return (await TAKE.run(
      this.redis,
      [
        k.quotaMinute(connection),
        k.quotaDay(connection),
        k.quotaConcurrency(connection),
        k.park(connection),
        k.quotaAnnouncedWaiting(connection),
        k.quotaHistoryLast(connection),
      ],
      [
        now,
        limits.perMinute,
        limits.perDay ?? 0,
        limits.concurrency,
        lease,
        leaseTtlMs,
        lane,
        paceMs,
        yieldPaceMs,
        ANNOUNCED_WAITER_TTL_MS,
      ],
    )) as [number, number];
  }

  /** A slot taken: counted for the job's own calls, and its release (the concurrency lease), once. */
  private granted(connection: string, lease: string, policy?: QuotaWaitPolicy): () => void {
    if (policy) {
      policy.onSlot?.();
      this.heldByJob.set(policy, (this.heldByJob.get(policy) ?? 0) + 1);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (policy) this.heldByJob.set(policy, (this.heldByJob.get(policy) ?? 1) - 1);
      void this.redis.zrem(this.keys.quotaConcurrency(connection), lease).catch(() => {});
    };
  }

  /**
   * Counts the call just granted against its app's month; when the month is spent, gives the slot back,
   * parks the connection until the month ends (every job of it then waits, as on a spent day) and throws.
   * The park is decided in src/waits/app-month-waits.ts.
   */
  private async takeMonthCall(connection: string, month: { app: string; budget: number }, lease: string, now: number) {
    const { month: m, endsAt } = calendarMonth(now);
    const n = (await TAKE_MONTH.run(
      this.redis,
      [this.keys.appMonthCalls(month.app, m)],
      [month.budget, endsAt + 7 * 86_400_000],
    )) as number;
    if (n >= 0) return;
    const wait = decideAppMonthSpent(month.app, month.budget, now);
    await this.redis.zrem(this.keys.quotaConcurrency(connection), lease);
    await this.park(connection, wait.untilMs);
    throw new ParkedError(connection, wait.untilMs, { why: wait.why });
  }

  /** Calls an app made in the calendar month of `now` (UTC), every connection of it together. */
  async monthUsage(app: string): Promise<number> {
    return Number((await this.redis.get(this.keys.appMonthCalls(app, calendarMonth(this.now()).month))) ?? 0);
  }

  /**
   * What the vendor says is left in a window (its response headers): when it is less than our count
   * leaves, our count is raised to match, so we stop where the vendor would refuse.
   */
  async observe(connection: string, limits: QuotaLimits, window: 'minute' | 'day', remaining: number): Promise<number> {
    const limit = window === 'minute' ? limits.perMinute : (limits.perDay ?? 0);
    return (await OBSERVE.run(
      this.redis,
      [this.keys.quotaMinute(connection), this.keys.quotaDay(connection)],
      [this.now(), window, remaining, limit, randomUUID()],
    )) as number;
  }

  /** Parks a connection (vendor day limit, or remaining quota 0) until `untilMs`. Never shortens a park. */
  async park(connection: string, untilMs: number): Promise<void> {
    const ms = Math.max(1, untilMs - this.now());
    await PARK.run(this.redis, [this.keys.park(connection)], [String(untilMs), String(ms)]);
  }

  /** Lifts a connection's park (its cause is gone: a refused token replaced). Returns whether one was set. */
  async unpark(connection: string): Promise<boolean> {
    return (await this.redis.del(this.keys.park(connection))) > 0;
  }

  async parkedUntil(connection: string): Promise<number | undefined> {
    const ttl = await this.redis.pttl(this.keys.park(connection));
    return ttl > 0 ? this.now() + ttl : undefined;
  }

  /** Calls in the last 60 s and the last 24 h (as last counted), and calls in flight now. */
  async usage(connection: string): Promise<{ minute: number; day: number; inflight: number }> {
    const now = this.now();
    const [m, d, f] = await Promise.all([
      this.redis.zcount(this.keys.quotaMinute(connection), `(${now - 60_000}`, '+inf'),
      this.redis.hget(this.keys.quotaDay(connection), 't'),
      this.redis.zcount(this.keys.quotaConcurrency(connection), now, '+inf'),
    ]);
    return { minute: m, day: Number(d ?? 0), inflight: f };
  }
}
