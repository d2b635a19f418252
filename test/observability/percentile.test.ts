import { describe, expect, it } from 'vitest';
import { percentile } from '../../src/observability/percentile.js';
import { FRESHNESS_WINDOW_MS, freshnessOf } from '../../src/pipeline/freshness-samples.js';
import { CHANGE_TO_BILLING_SLOW_P99_SECONDS } from '../../src/observability/change-to-billing-slow.js';

const HUNDRED = Array.from({ length: 100 }, (_, i) => i + 1);

describe('percentile (nearest rank)', () => {
  it.each([
    { values: [], p: 50, expected: null },
    { values: [7], p: 50, expected: 7 },
    { values: [7], p: 99, expected: 7 },
    { values: [3, 1, 2], p: 50, expected: 2 },
    { values: [1, 2, 3, 4], p: 50, expected: 2 },
    { values: [1, 2, 3, 4], p: 75, expected: 3 },
    { values: [1, 2, 3, 4], p: 100, expected: 4 },
    { values: HUNDRED, p: 50, expected: 50 },
    { values: HUNDRED, p: 99, expected: 99 },
    { values: [...HUNDRED, 1000], p: 99, expected: 100 },
    { values: [0.4, 0.2, 12.5, 0.3], p: 99, expected: 12.5 },
  ])('given $values, the p$p is $expected', ({ values, p, expected }) => {
    expect(percentile(values, p)).toBe(expected);
  });

  it.each([0, -1, 101, Number.NaN])('given p = %s, it refuses', (p) => {
    expect(() => percentile([1], p)).toThrow(RangeError);
  });

  it('leaves its input as it was', () => {
    const values = [3, 1, 2];
    percentile(values, 50);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe('freshnessOf: the stored samples within the window', () => {
  const now = 10 * FRESHNESS_WINDOW_MS;
  it.each([
    { raw: [], expected: { p50Seconds: null, p99Seconds: null, samples: 0 } },
    { raw: [`${now}:1.500`, `${now - 1000}:0.500`], expected: { p50Seconds: 0.5, p99Seconds: 1.5, samples: 2 } },
    {
      raw: [`${now}:2.000`, `${now - FRESHNESS_WINDOW_MS}:3.000`, `${now - FRESHNESS_WINDOW_MS - 1}:900.000`],
      expected: { p50Seconds: 2, p99Seconds: 3, samples: 2 },
    },
    { raw: ['garbage', `${now}:x`, `${now}:4.000`], expected: { p50Seconds: 4, p99Seconds: 4, samples: 1 } },
  ])('given $raw, then $expected', ({ raw, expected }) => {
    expect(freshnessOf(raw, now)).toEqual({
      ...expected,
      windowSeconds: FRESHNESS_WINDOW_MS / 1000,
      alertAboveSeconds: CHANGE_TO_BILLING_SLOW_P99_SECONDS,
    });
  });
});
