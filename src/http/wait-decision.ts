import type { RateLimitedError } from '../errors/index.js';

/**
 * THE place that decides what a vendor's "not now" means. Connectors only classify (their error table
 * turns a 429 or a throttle fault into a RateLimitedError with `retryAfterMs` and `scope`; their quota
 * reader turns rate-limit headers into QuotaSignals); the vendor client asks this file what to do:
 *
 * | signal                                                  | decision                                   |
 * |---------------------------------------------------------|--------------------------------------------|
 * | RateLimitedError, scope 'day'                           | park the connection until the reset        |
 * | RateLimitedError, Retry-After ≤ the in-place cap        | wait in place, retry (p-retry, bounded)    |
 * | RateLimitedError, Retry-After unknown                   | wait in place with p-retry's backoff       |
 * | RateLimitedError, Retry-After > the in-place cap        | park the connection for Retry-After        |
 * | quota signal: day window, 0 left, reset known (> 60 s)  | park the connection until the reset        |
 * | any other quota signal                                  | report it (metrics) only                   |
 *
 * A park is a Redis key every process honours (src/pipeline/quotas.ts): no worker of the connection
 * calls the vendor until it expires, and the job that met it is delayed, not failed, in one place
 * (jobs/define-job.ts turns ParkedError into a delayed job without using an attempt). Other
 * connections are untouched. Billing 429s are not vendor waits: they pause the upsert queue (jobs/upsert.ts).
 */
export type WaitDecision = { kind: 'wait-in-place' } | { kind: 'park'; untilMs: number };

/** What a connector reads off a response's rate-limit headers. */
export interface QuotaSignal {
  window: 'minute' | 'day';
  /** Calls left in the window. */
  remaining: number;
  /** Milliseconds until the window resets, when the vendor says. */
  resetMs?: number;
}

/** When a day-limit 429 carries no Retry-After: vendors reset their day at midnight UTC or sooner. */
export function msToNextUtcMidnight(now: number): number {
  return (Math.floor(now / 86_400_000) + 1) * 86_400_000 - now;
}

export function decideRateLimited(err: RateLimitedError, maxInPlaceWaitMs: number, now: number): WaitDecision {
  if (err.scope === 'day') return { kind: 'park', untilMs: now + (err.retryAfterMs ?? msToNextUtcMidnight(now)) };
  if (err.retryAfterMs === undefined || err.retryAfterMs <= maxInPlaceWaitMs) return { kind: 'wait-in-place' };
  return { kind: 'park', untilMs: now + err.retryAfterMs };
}

/** A minute window's reset is waited out by the quota slots; only a spent day parks. */
export const MINUTE_WINDOW_MS = 60_000;

export function decideQuotaSignal(signal: QuotaSignal, now: number): WaitDecision | undefined {
  if (signal.window !== 'day' || signal.remaining > 0 || signal.resetMs === undefined || signal.resetMs <= MINUTE_WINDOW_MS) return undefined;
  return { kind: 'park', untilMs: now + signal.resetMs };
}
