import type { Redis } from 'ioredis';
import { CHANGE_TO_BILLING_SLOW_P99_SECONDS } from '../observability/change-to-billing-slow.js';
import { percentile } from '../observability/percentile.js';
import type { StateKeys } from './keys.js';

/** The latest change→billing latencies kept per connection (older ones are trimmed as new ones come). */
export const FRESHNESS_SAMPLE_CAP = 1000;
/** Samples older than this are left out of the percentiles (and the list expires this long after its last write). */
export const FRESHNESS_WINDOW_MS = 3600_000;

/** A connection's freshness as `connections` and `status` show it: change → billing over the window. */
export interface FreshnessView {
  /** Seconds from the source's change to billing's 2xx, median and 99th percentile; null: no sample. */
  p50Seconds: number | null;
  p99Seconds: number | null;
  /** Changes measured (at most FRESHNESS_SAMPLE_CAP, none older than the window). */
  samples: number;
  windowSeconds: number;
  /** The p99 above which ErpSyncChangeToBillingSlow fires (for changes by webhook): what a reader compares p99 with. */
  alertAboveSeconds: number;
}

/**
 * Recent change→billing latencies per connection, shared by every process on the Redis (the histogram
 * `erpsync_change_to_billing_seconds` is per process): a capped list of `<ms written>:<seconds>`, newest
 * first. A settle adds its job's samples in one pipelined round trip (LPUSH, LTRIM, PEXPIRE on one key).
 */
export class FreshnessSamples {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  /** Adds the latencies (seconds) of changes written at `now`. */
  async add(connection: string, seconds: readonly number[], now = Date.now()): Promise<void> {
    if (seconds.length === 0) return;
    const key = this.keys.freshness(connection);
    await this.redis
      .pipeline()
      .lpush(key, ...seconds.map((s) => `${now}:${s.toFixed(3)}`))
      .ltrim(key, 0, FRESHNESS_SAMPLE_CAP - 1)
      .pexpire(key, FRESHNESS_WINDOW_MS)
      .exec();
  }

  async read(connection: string, now = Date.now()): Promise<FreshnessView> {
    const raw = await this.redis.lrange(this.keys.freshness(connection), 0, -1);
    return freshnessOf(raw, now);
  }
}

/** The percentiles of the stored samples written within the window before `now` (malformed ones ignored). */
export function freshnessOf(raw: readonly string[], now: number): FreshnessView {
  const values: number[] = [];
  for (const entry of raw) {
    const [at, s] = entry.split(':').map(Number);
    if (Number.isFinite(at) && Number.isFinite(s) && at! >= now - FRESHNESS_WINDOW_MS) values.push(s!);
  }
  return {
    p50Seconds: percentile(values, 50),
    p99Seconds: percentile(values, 99),
    samples: values.length,
    windowSeconds: FRESHNESS_WINDOW_MS / 1000,
    alertAboveSeconds: CHANGE_TO_BILLING_SLOW_P99_SECONDS,
  };
}
