import { afterAll, describe, expect, it } from 'vitest';
import { CHANGE_TO_BILLING_SLOW_P99_SECONDS } from '../../src/observability/change-to-billing-slow.js';
import { FRESHNESS_SAMPLE_CAP, FRESHNESS_WINDOW_MS, FreshnessSamples } from '../../src/pipeline/freshness-samples.js';
import { stateKeys } from '../../src/pipeline/keys.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

/** Recent change→billing latencies per connection, shared in Redis by every worker process. */
describe('FreshnessSamples', () => {
  const prefix = testPrefix('freshness-samples');
  const a = connect();
  const b = connect();
  // Two worker processes writing, a third (the CLI, the API) reading.
  const one = new FreshnessSamples(a, stateKeys(prefix));
  const other = new FreshnessSamples(b, stateKeys(prefix));
  afterAll(async () => {
    await dropPrefix(a, prefix);
    await a.quit();
    await b.quit();
  });

  it('given no change written, then its percentiles are null', async () => {
    expect(await one.read('c-none')).toEqual({
      p50Seconds: null,
      p99Seconds: null,
      samples: 0,
      windowSeconds: 3600,
      alertAboveSeconds: CHANGE_TO_BILLING_SLOW_P99_SECONDS,
    });
  });

  it('given latencies written by two processes, when read, then p50 and p99 are over both', async () => {
    const now = Date.now();
    await one.add('c1', [1, 2, 3, 4, 5], now);
    await other.add('c1', [0.25, 100], now);
    await other.add('c2', [42], now);
    expect(await one.read('c1', now)).toMatchObject({ p50Seconds: 3, p99Seconds: 100, samples: 7 });
    expect(await other.read('c2', now)).toMatchObject({ p50Seconds: 42, p99Seconds: 42, samples: 1 });
  });

  it('given samples older than the window, then they are left out', async () => {
    const now = Date.now();
    await one.add('c3', [500], now - FRESHNESS_WINDOW_MS - 1);
    await one.add('c3', [2], now);
    expect(await other.read('c3', now)).toMatchObject({ p50Seconds: 2, p99Seconds: 2, samples: 1 });
  });

  it('given more samples than the cap, then only the latest cap are kept, and the key expires after the window', async () => {
    const now = Date.now();
    await one.add('c4', Array<number>(FRESHNESS_SAMPLE_CAP).fill(60), now);
    await one.add('c4', Array<number>(10).fill(1), now);
    const key = stateKeys(prefix).freshness('c4');
    expect(await a.llen(key)).toBe(FRESHNESS_SAMPLE_CAP);
    expect(await a.lrange(key, 0, 0)).toEqual([`${now}:1.000`]);
    expect(await a.pttl(key)).toBeGreaterThan(FRESHNESS_WINDOW_MS - 60_000);
    expect(await one.read('c4', now)).toMatchObject({ samples: FRESHNESS_SAMPLE_CAP, p50Seconds: 60 });
  });

  it('given nothing to add, then it writes nothing', async () => {
    await one.add('c5', []);
    expect(await a.exists(stateKeys(prefix).freshness('c5'))).toBe(0);
  });
});
