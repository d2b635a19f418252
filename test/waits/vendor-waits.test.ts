import { describe, expect, it } from 'vitest';
import { RateLimitedError } from '../../src/errors/index.js';
import {
  decideQuotaSignal,
  decideQuotaSlot,
  decideRateLimited,
  decideVendorFailure,
  deferralOfPark,
  msToNextUtcMidnight,
  quotaLaneRule,
  type QuotaLane,
  type QuotaSignal,
  type QuotaSlotWait,
} from '../../src/waits/vendor-waits.js';

const NOW = Date.UTC(2026, 10, 27, 18, 0, 0);
const CAP = 2_000;
const limited = (retryAfterMs: number | undefined, scope?: 'minute' | 'day') =>
  new RateLimitedError('429', { retryAfterMs: retryAfterMs as number, scope });

describe('a vendor 429 (decideRateLimited, in-place cap 2 s)', () => {
  it.each([
    ['a day limit with Retry-After 1 h', limited(3_600_000, 'day'), { kind: 'park', untilMs: NOW + 3_600_000 }],
    [
      'a day limit without Retry-After',
      limited(undefined, 'day'),
      { kind: 'park', untilMs: NOW + msToNextUtcMidnight(NOW) },
    ],
    ['Retry-After 1 s (within the cap)', limited(1_000), { kind: 'wait-in-place' }],
    ['Retry-After 2 s (the cap itself)', limited(2_000), { kind: 'wait-in-place' }],
    ['no Retry-After', limited(undefined), { kind: 'wait-in-place' }],
    ['Retry-After 30 s (beyond the cap)', limited(30_000), { kind: 'park', untilMs: NOW + 30_000 }],
  ])('given %s, then %j', (_, err, decision) => {
    expect(decideRateLimited(err, CAP, NOW)).toEqual(decision);
  });

  it('given a day limit without Retry-After at 18:00 UTC, then the park ends at the next midnight UTC', () => {
    expect(NOW + msToNextUtcMidnight(NOW)).toBe(Date.UTC(2026, 10, 28));
  });
});

describe("a vendor's quota headers (decideQuotaSignal)", () => {
  it.each<[string, QuotaSignal, object | undefined]>([
    [
      'day window, 0 left, reset in 2 h',
      { window: 'day', remaining: 0, resetMs: 7_200_000 },
      { kind: 'park', untilMs: NOW + 7_200_000 },
    ],
    ['day window, 0 left, reset in 30 s', { window: 'day', remaining: 0, resetMs: 30_000 }, undefined],
    ['day window, 0 left, reset unknown', { window: 'day', remaining: 0 }, undefined],
    ['day window, 5 left', { window: 'day', remaining: 5, resetMs: 7_200_000 }, undefined],
    ['minute window, 0 left', { window: 'minute', remaining: 0, resetMs: 40_000 }, undefined],
  ])('given %s, then %j (undefined: reported only)', (_, signal, decision) => {
    expect(decideQuotaSignal(signal, NOW)).toEqual(decision);
  });
});

describe('a quota slot not free now (decideQuotaSlot; a job policy waits 1 s in place)', () => {
  const deferrable = { maxInPlaceWaitMs: 1_000, deferrable: () => true };
  const reading = { maxInPlaceWaitMs: 1_000, deferrable: () => false };
  const base: QuotaSlotWait = {
    waitMs: 0,
    parked: false,
    concurrency: false,
    maxParkWaitMs: 0,
    waitingOnItself: false,
  };
  it.each<[string, QuotaSlotWait, object]>([
    [
      'parked for 1 h, no park waited in place',
      { ...base, parked: true, waitMs: 3_600_000 },
      { kind: 'park', waitMs: 3_600_000, why: 'vendor quota spent' },
    ],
    [
      'parked for 5 s, parks up to 10 s waited in place',
      { ...base, parked: true, waitMs: 5_000, maxParkWaitMs: 10_000 },
      { kind: 'wait-in-place' },
    ],
    [
      "history's next paced slot in 667 ms (Zoho Books' pace), a deferrable job",
      { ...base, waitMs: 667, paced: true, policy: deferrable },
      { kind: 'wait-in-place' },
    ],
    [
      "history's next paced slot in 20 s (3 calls a minute), a deferrable job",
      { ...base, waitMs: 20_000, paced: true, policy: deferrable },
      { kind: 'park', waitMs: 20_000, why: 'history paced behind announced reads: next slot then' },
    ],
    [
      'the next minute slot in 20 s, a deferrable job',
      { ...base, waitMs: 20_000, policy: deferrable },
      { kind: 'park', waitMs: 20_000, why: 'vendor minute quota: next slot then' },
    ],
    [
      'the next minute slot in 20 s, a job that would lose its read',
      { ...base, waitMs: 20_000, policy: reading },
      { kind: 'wait-in-place' },
    ],
    ['the next minute slot in 20 s, outside a job', { ...base, waitMs: 20_000 }, { kind: 'wait-in-place' }],
    [
      'the next minute slot in 500 ms, a deferrable job',
      { ...base, waitMs: 500, policy: deferrable },
      { kind: 'wait-in-place' },
    ],
    [
      'every concurrency slot busy for 2 s, a deferrable job',
      { ...base, concurrency: true, waitMs: 2_000, policy: deferrable },
      { kind: 'park', waitMs: 1_000, why: 'vendor concurrency: every slot busy' },
    ],
    [
      "every concurrency slot busy for 2 s, held by the job's own calls",
      { ...base, concurrency: true, waitingOnItself: true, waitMs: 2_000, policy: deferrable },
      { kind: 'wait-in-place' },
    ],
  ])('given %s, then %j', (_, wait, decision) => {
    expect(decideQuotaSlot(wait)).toEqual(decision);
  });
});

describe("a lane's pace (quotaLaneRule): announced reads first, history paced and yielding to 20 % while they wait", () => {
  it.each<[QuotaLane, number, object]>([
    ['announced', 90, { paceMs: 0, yieldPaceMs: 0 }],
    ['current', 90, { paceMs: 0, yieldPaceMs: 0 }],
    // Zoho Books' 90 a minute: 667 ms apart, 18 a minute (3.34 s apart) while announced reads wait.
    ['history', 90, { paceMs: 667, yieldPaceMs: 3_334 }],
    // Xero's 55: 1.09 s apart; 11 a minute while yielding.
    ['history', 55, { paceMs: 1_091, yieldPaceMs: 5_455 }],
    // QuickBooks' 450: 134 ms apart; 90 a minute while yielding.
    ['history', 450, { paceMs: 134, yieldPaceMs: 667 }],
    // A budget under 5 a minute still keeps one call a minute while yielding.
    ['history', 3, { paceMs: 20_000, yieldPaceMs: 60_000 }],
  ])('given the %s lane at %d a minute, then %j', (lane, perMinute, rule) => {
    expect(quotaLaneRule(lane, perMinute)).toEqual(rule);
  });
});

describe('a failed pull (decideVendorFailure, outage retry 5 min)', () => {
  it.each([
    ['a transient failure on the first attempt', true, 0, undefined],
    ['a transient failure on a retry', true, 1, { kind: 'park', untilMs: NOW + 300_000 }],
    ['a permanent failure on a retry', false, 3, undefined],
  ])('given %s, then %j', (_, transient, attemptsMade, decision) => {
    expect(decideVendorFailure(transient, attemptsMade, NOW, 300_000)).toEqual(decision);
  });
});

describe('a parked job (deferralOfPark)', () => {
  it.each([
    ['a park ending in 20 s', NOW + 20_000, { reason: 'quota', jitterMs: 250 }],
    ['a park ending in 60 s', NOW + 60_000, { reason: 'park', jitterMs: 1_000 }],
    ['a park ending in 6 h', NOW + 6 * 3_600_000, { reason: 'park', jitterMs: 1_000 }],
  ])('given %s, then it is delayed as %j', (_, untilMs, deferral) => {
    expect(deferralOfPark(untilMs, NOW)).toEqual(deferral);
  });
});
