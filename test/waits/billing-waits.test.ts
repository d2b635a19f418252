import { describe, expect, it } from 'vitest';
import { type BillingSignal, type BillingWait, decideBillingWait } from '../../src/waits/billing-waits.js';

describe("billing's 'not now' (decideBillingWait)", () => {
  it.each<[string, BillingSignal, BillingWait]>([
    [
      'a 429 with Retry-After 3 s under rateLimit.scope key',
      { kind: 'rate-limited', retryAfterMs: 3_000, scope: 'key' },
      { action: 'pause-key', pauseMs: 3_000 },
    ],
    [
      'a 429 with Retry-After 3 s under rateLimit.scope deployment',
      { kind: 'rate-limited', retryAfterMs: 3_000, scope: 'deployment' },
      { action: 'pause-queue', pauseMs: 3_000 },
    ],
    [
      'a 429 without Retry-After',
      { kind: 'rate-limited', scope: 'deployment' },
      { action: 'pause-queue', pauseMs: 1_000 },
    ],
    [
      'a 429 with Retry-After 0',
      { kind: 'rate-limited', retryAfterMs: 0, scope: 'key' },
      { action: 'pause-key', pauseMs: 100 },
    ],
    [
      "the key's window full for 700 ms",
      { kind: 'window-full', waitMs: 700 },
      { action: 'wait-for-slot', waitMs: 700 },
    ],
    ['billing down', { kind: 'down' }, { action: 'wait-for-billing' }],
  ])('given %s, then %j', (_, signal, wait) => {
    expect(decideBillingWait(signal)).toEqual(wait);
  });
});
