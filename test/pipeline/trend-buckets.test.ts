import { afterAll, describe, expect, it } from 'vitest';
import { stateKeys } from '../../src/pipeline/keys.js';
import { QUARANTINE_BUCKETS, TREND_HOURS, TrendBuckets } from '../../src/pipeline/trend-buckets.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

const HOUR = 3_600_000;
/** A whole hour on the clock, so buckets are where the test says. */
const T0 = Date.UTC(2026, 11, 7, 10);

/** The console's trend series: a small hash per connection, sampled by the sweep, read by the API. */
describe('TrendBuckets', () => {
  const prefix = testPrefix('trend-buckets');
  const redis = connect();
  const trends = new TrendBuckets(redis, stateKeys(prefix));
  const sample = { callsMinute: 0, callsDay: 0, freshnessP99: null, quarantine: 0 };
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given no sample, then every bucket is null and the hours end with the current one', async () => {
    const s = await trends.read('none', T0 + 30 * 60_000);
    expect(s.hours).toHaveLength(TREND_HOURS);
    expect(s.hours.at(-1)).toBe(new Date(T0).toISOString());
    expect(s.quarantineAt).toHaveLength(QUARANTINE_BUCKETS);
    expect([...s.callsPeakMinute, ...s.callsDay, ...s.freshnessP99Seconds, ...s.quarantine]).toEqual(
      new Array(3 * TREND_HOURS + QUARANTINE_BUCKETS).fill(null),
    );
  });

  it('given samples in one hour, then it keeps the busiest minute and the latest day count, p99 and quarantine', async () => {
    await trends.record('c1', { callsMinute: 40, callsDay: 100, freshnessP99: 2.5, quarantine: 3 }, T0 + 60_000);
    await trends.record('c1', { callsMinute: 12, callsDay: 130, freshnessP99: null, quarantine: 5 }, T0 + 120_000);
    const s = await trends.read('c1', T0 + 180_000);
    expect(s.callsPeakMinute.at(-1)).toBe(40);
    expect(s.callsDay.at(-1)).toBe(130);
    // An hour without a write has no p99: the last one measured stays.
    expect(s.freshnessP99Seconds.at(-1)).toBe(2.5);
    expect(s.quarantine.at(-1)).toBe(5);
    expect(s.callsPeakMinute.slice(0, -1).every((v) => v === null)).toBe(true);
  });

  it('given a day of hourly samples and a week of quarantine, then only the last 24 hours and 7 days remain, in a hash of about 2 KB', async () => {
    for (let i = 0; i < 7 * 24 + 5; i++)
      await trends.record(
        'c2',
        { ...sample, callsMinute: i, callsDay: i * 10, freshnessP99: i / 10, quarantine: i },
        T0 + i * HOUR,
      );
    const now = T0 + (7 * 24 + 4) * HOUR + 60_000;
    const s = await trends.read('c2', now);
    expect(s.callsPeakMinute).toEqual(Array.from({ length: 24 }, (_, k) => 7 * 24 + 5 - 24 + k));
    expect(s.quarantine.at(-1)).toBe(7 * 24 + 4);
    expect(s.quarantine.every((v) => v !== null)).toBe(true);
    const key = stateKeys(prefix).trend('c2');
    expect(await redis.hlen(key)).toBe(3 * TREND_HOURS + QUARANTINE_BUCKETS);
    expect(await redis.object('ENCODING', key)).toBe('listpack');
    const bytes = Number(await redis.call('MEMORY', 'USAGE', key));
    console.log(`[trend-buckets] one connection's full trend hash: ${bytes} bytes`);
    expect(bytes).toBeLessThan(4096);
    expect(await redis.pttl(key)).toBeGreaterThan(7 * 24 * HOUR);
  });
});
