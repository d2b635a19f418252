import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';
import { LuaScript } from './lua-script.js';
import { ParkedError } from '../errors/index.js';

export interface QuotaLimits {
  perMinute: number;
  /** 0 or undefined: no daily cap. */
  perDay?: number;
  concurrency: number;
}

// One atomic check-and-take: 0 = a slot was taken, > 0 = wait that long, < 0 = parked (day limit).
const TAKE = LuaScript.load('take-quota-4');
const PARK = LuaScript.load('park-connection-1');

/** Waits `ms` (or until `signal` aborts): injectable, so tests drive waits without sleeping. */
export type Wait = (ms: number, signal?: AbortSignal) => Promise<unknown>;
const realWait: Wait = (ms, signal) => sleep(ms, undefined, { signal });

/** A parked connection's slot request: the job is delayed until the park ends (jobs/define-job.ts). */
export const QuotaParkedError = ParkedError;

/**
 * Per-connection vendor quotas held in Redis, shared by every job type and every process: N replicas
 * behave like one. Per-minute is a fixed UTC-minute window, per-day a UTC day; concurrency is a set of
 * leases that expire (so a killed process cannot hold a slot forever).
 */
export class Quotas {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
    private readonly now: () => number = Date.now,
    private readonly wait: Wait = realWait,
  ) {}

  /**
   * Waits for a slot. Throws QuotaParkedError when the connection is parked (or its daily cap is spent)
   * and `maxParkWaitMs` is exceeded — the caller delays its job instead of holding a worker.
   */
  async acquire(
    connection: string,
    limits: QuotaLimits,
    options: { signal?: AbortSignal; leaseTtlMs?: number; maxParkWaitMs?: number } = {},
  ): Promise<() => void> {
    const lease = randomUUID();
    for (;;) {
      options.signal?.throwIfAborted();
      const now = this.now();
      const minuteIndex = Math.floor(now / 60_000);
      const day = new Date(now).toISOString().slice(0, 10);
      const msToNextMinute = (minuteIndex + 1) * 60_000 - now;
      const msToNextDay = Date.parse(`${day}T00:00:00Z`) + 86_400_000 - now;
      const r = (await TAKE.run(
        this.redis,
        [
          this.keys.quotaMinute(connection, minuteIndex),
          this.keys.quotaDay(connection, day),
          this.keys.quotaConcurrency(connection),
          this.keys.park(connection),
        ],
        [now, limits.perMinute, limits.perDay ?? 0, limits.concurrency, lease, options.leaseTtlMs ?? 120_000, msToNextMinute, msToNextDay].map(String),
      )) as number;
      if (r === 0) {
        let released = false;
        return () => {
          if (released) return;
          released = true;
          void this.redis.zrem(this.keys.quotaConcurrency(connection), lease).catch(() => {});
        };
      }
      if (r < 0) {
        const wait = -r;
        if (wait > (options.maxParkWaitMs ?? 0)) throw new ParkedError(connection, now + wait, { why: 'vendor quota spent' });
        await this.wait(wait, options.signal);
        continue;
      }
      await this.wait(Math.min(r, 1_000), options.signal);
    }
  }

  /** Parks a connection (vendor day limit, or remaining quota 0) until `untilMs`. Never shortens a park. */
  async park(connection: string, untilMs: number): Promise<void> {
    const ms = Math.max(1, untilMs - this.now());
    await PARK.run(this.redis, [this.keys.park(connection)], [String(untilMs), String(ms)]);
  }

  async parkedUntil(connection: string): Promise<number | undefined> {
    const ttl = await this.redis.pttl(this.keys.park(connection));
    return ttl > 0 ? this.now() + ttl : undefined;
  }

  async usage(connection: string): Promise<{ minute: number; day: number; inflight: number }> {
    const now = this.now();
    const [m, d, f] = await Promise.all([
      this.redis.get(this.keys.quotaMinute(connection, Math.floor(now / 60_000))),
      this.redis.get(this.keys.quotaDay(connection, new Date(now).toISOString().slice(0, 10))),
      this.redis.zcount(this.keys.quotaConcurrency(connection), now, '+inf'),
    ]);
    return { minute: Number(m ?? 0), day: Number(d ?? 0), inflight: f };
  }
}
