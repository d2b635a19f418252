import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';

const HOUR_MS = 3_600_000;
/** Hours kept of the vendor calls and the freshness p99. */
export const TREND_HOURS = 24;
/** The quarantine count's buckets: four hours each, seven days in all. */
export const QUARANTINE_BUCKET_HOURS = 4;
export const QUARANTINE_BUCKETS = (7 * 24) / QUARANTINE_BUCKET_HOURS;
const BUCKET_MS = QUARANTINE_BUCKET_HOURS * HOUR_MS;
/** The hash outlives its oldest bucket a little, and goes with a connection that no longer samples. */
const TTL_MS = QUARANTINE_BUCKETS * BUCKET_MS + BUCKET_MS;

/** What the scheduled sweep reads of one connection each run (jobs/sweep/sweep-processor.ts). */
export interface TrendSample {
  /** Vendor calls in the last minute, and in the last 24 h (the quota's rolling windows). */
  callsMinute: number;
  callsDay: number;
  /** Change → billing p99 of the last hour, seconds; null: nothing written in it. */
  freshnessP99: number | null;
  /** Records in quarantine now. */
  quarantine: number;
}

/** A connection's series, oldest first; null where no sample fell in the bucket. */
export interface TrendSeries {
  /** The start of each of the last 24 hours, the current one last. */
  hours: string[];
  /** The most calls seen in one minute during each hour (the per-minute limit is what it is compared with). */
  callsPeakMinute: Array<number | null>;
  /** Calls in the 24 h before the hour's last sample (the day cap is what it is compared with). */
  callsDay: Array<number | null>;
  freshnessP99Seconds: Array<number | null>;
  /** The start of each 4-hour bucket of the last 7 days, and the quarantine count at its last sample. */
  quarantineAt: string[];
  quarantine: Array<number | null>;
}

/**
 * One write, on one key (a Cluster runs it on the connection's slot): the minute peak kept as the
 * hour's largest, the other figures as the latest of their bucket; then every field past its span
 * dropped and the expiry moved on. The hash holds at most 24 × 3 + 42 = 114 fields, under Redis'
 * listpack limit of 128 (hash-max-listpack-entries), so it stays in the compact encoding.
 */
const RECORD = `
local key = KEYS[1]
local h = tonumber(ARGV[1])
local b = tonumber(ARGV[2])
local peak = tonumber(redis.call('HGET', key, 'cm:' .. h) or '-1')
if tonumber(ARGV[3]) > peak then redis.call('HSET', key, 'cm:' .. h, ARGV[3]) end
redis.call('HSET', key, 'cd:' .. h, ARGV[4])
if ARGV[5] ~= '' then redis.call('HSET', key, 'fp:' .. h, ARGV[5]) end
redis.call('HSET', key, 'q:' .. b, ARGV[6])
for _, f in ipairs(redis.call('HKEYS', key)) do
  local kind, n = string.match(f, '^(%a+):(%d+)$')
  n = tonumber(n)
  if n == nil or (kind == 'q' and n <= b - ${QUARANTINE_BUCKETS}) or (kind ~= 'q' and n <= h - ${TREND_HOURS}) then
    redis.call('HDEL', key, f)
  end
end
redis.call('PEXPIRE', key, ARGV[7])
return 1
`;

/**
 * The series the console's trend charts draw, per connection, in one small hash
 * (`<prefix>:trend:<connection>`): hourly buckets of the vendor calls (the minute's peak, the rolling
 * day) and the freshness p99 over 24 hours, and the quarantine count in 4-hour buckets over 7 days.
 * Written by the scheduled sweep (one run every `sync.sweepEverySeconds` across all workers), read by
 * the API (GET /trends). About 2 KB a connection (docs/console.md).
 */
export class TrendBuckets {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  async record(connection: string, s: TrendSample, now = Date.now()): Promise<void> {
    const h = Math.floor(now / HOUR_MS);
    const b = Math.floor(now / BUCKET_MS);
    const p99 = s.freshnessP99 === null ? '' : String(Math.round(s.freshnessP99 * 1000) / 1000);
    await this.redis.eval(
      RECORD,
      1,
      this.keys.trend(connection),
      h,
      b,
      s.callsMinute,
      s.callsDay,
      p99,
      s.quarantine,
      TTL_MS,
    );
  }

  async read(connection: string, now = Date.now()): Promise<TrendSeries> {
    const raw = await this.redis.hgetall(this.keys.trend(connection));
    const h = Math.floor(now / HOUR_MS);
    const b = Math.floor(now / BUCKET_MS);
    const hours = Array.from({ length: TREND_HOURS }, (_, i) => h - TREND_HOURS + 1 + i);
    const buckets = Array.from({ length: QUARANTINE_BUCKETS }, (_, i) => b - QUARANTINE_BUCKETS + 1 + i);
    const of = (kind: string, n: number) => {
      const v = raw[`${kind}:${n}`];
      return v === undefined || !Number.isFinite(Number(v)) ? null : Number(v);
    };
    return {
      hours: hours.map((n) => new Date(n * HOUR_MS).toISOString()),
      callsPeakMinute: hours.map((n) => of('cm', n)),
      callsDay: hours.map((n) => of('cd', n)),
      freshnessP99Seconds: hours.map((n) => of('fp', n)),
      quarantineAt: buckets.map((n) => new Date(n * BUCKET_MS).toISOString()),
      quarantine: buckets.map((n) => of('q', n)),
    };
  }
}
