import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { ParkedError } from '../errors/index.js';
import type { StateKeys } from './keys.js';

export interface QuotaLimits {
  perMinute: number;
  /** 0 or undefined: no daily cap. */
  perDay?: number;
  concurrency: number;
}

/*
 * One atomic check-and-take. Returns 0 when a slot was taken, else how long to wait (ms); negative when
 * the connection is parked (day limit), so callers can tell "parked" from "busy".
 * KEYS: minute counter, day counter, in-flight leases (zset scored by expiry), park key
 * ARGV: now, perMinute, perDay, concurrency, leaseId, leaseTtlMs, msToNextMinute, msToNextDay
 */
const TAKE = `
local park = redis.call('pttl', KEYS[4])
if park > 0 then return -park end
local now = tonumber(ARGV[1])
redis.call('zremrangebyscore', KEYS[3], '-inf', now)
if redis.call('zcard', KEYS[3]) >= tonumber(ARGV[4]) then return 25 end
local m = tonumber(redis.call('get', KEYS[1]) or '0')
if m >= tonumber(ARGV[2]) then return tonumber(ARGV[7]) end
local perDay = tonumber(ARGV[3])
if perDay > 0 then
  local d = tonumber(redis.call('get', KEYS[2]) or '0')
  if d >= perDay then return -tonumber(ARGV[8]) end
  redis.call('incr', KEYS[2])
  redis.call('pexpire', KEYS[2], 172800000)
end
redis.call('incr', KEYS[1])
redis.call('pexpire', KEYS[1], 61000)
redis.call('zadd', KEYS[3], now + tonumber(ARGV[6]), ARGV[5])
return 0`;

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
      const r = (await this.redis.eval(
        TAKE,
        4,
        this.keys.quotaMinute(connection, minuteIndex),
        this.keys.quotaDay(connection, day),
        this.keys.quotaConcurrency(connection),
        this.keys.park(connection),
        String(now),
        String(limits.perMinute),
        String(limits.perDay ?? 0),
        String(limits.concurrency),
        lease,
        String(options.leaseTtlMs ?? 120_000),
        String(msToNextMinute),
        String(msToNextDay),
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
        await sleep(wait, undefined, { signal: options.signal });
        continue;
      }
      await sleep(Math.min(r, 1_000), undefined, { signal: options.signal });
    }
  }

  /** Parks a connection (vendor day limit, or remaining quota 0) until `untilMs`. Never shortens a park. */
  async park(connection: string, untilMs: number): Promise<void> {
    const ms = Math.max(1, untilMs - this.now());
    const key = this.keys.park(connection);
    const cur = await this.redis.pttl(key);
    if (cur < ms) await this.redis.set(key, String(untilMs), 'PX', ms);
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
