import type { RateLimitedError } from '../errors/index.js';

/**
 * What a vendor's "not now" means, decided here alone. Connectors only classify (their error table
 * turns a 429 or a throttle fault into a RateLimitedError with `retryAfterMs` and `scope`; their quota
 * reader turns rate-limit headers into QuotaSignals); the vendor client, the quota slots, the pull and the
 * job wrapper ask this file what to do:
 *
 * | signal                                                   | decision                                   |
 * |----------------------------------------------------------|--------------------------------------------|
 * | RateLimitedError, scope 'day'                            | park the connection until the reset        |
 * | RateLimitedError, Retry-After ≤ the in-place cap         | wait in place, retry (p-retry, bounded)    |
 * | RateLimitedError, Retry-After unknown                    | wait in place with p-retry's backoff       |
 * | RateLimitedError, Retry-After > the in-place cap         | park the connection for Retry-After        |
 * | quota signal: day window, 0 left, reset known (> 60 s)   | park the connection until the reset        |
 * | any other quota signal                                   | report it (metrics) only                   |
 * | quota slot: parked or day spent, beyond the park cap     | park the job until then                    |
 * | quota slot: parked or day spent, within the park cap     | wait in place                              |
 * | quota slot (a minute slot, or history's pace: `quotaLaneRule`): a wait beyond the in-place cap, job deferrable, not waiting on its own calls | park the job until the slot |
 * | quota slot: any other wait                               | wait in place (1 s steps)                  |
 * | a pull failed transiently on a retry (two in a row)      | vendor outage: park the job for the outage retry |
 * | a parked job: park ends within 60 s / later              | delay it: reason `quota` (jitter 250 ms) / `park` (jitter 1 s) |
 *
 * A park is a Redis key every process honours (src/pipeline/quotas.ts): no worker of the connection
 * calls the vendor until it expires, and the job that met it is delayed, not failed, in one place
 * (jobs/define-job.ts turns ParkedError into a delayed job without using an attempt, through jobs/admission/defer.ts).
 * Other connections are untouched. Billing's "not now" is src/waits/billing-waits.ts.
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
  if (
    signal.window !== 'day' ||
    signal.remaining > 0 ||
    signal.resetMs === undefined ||
    signal.resetMs <= MINUTE_WINDOW_MS
  )
    return undefined;
  return { kind: 'park', untilMs: now + signal.resetMs };
}

/**
 * Whose read a vendor call serves, for the order in which a connection's waiting calls get its quota:
 *
 * | lane        | reads                                                              | takes its slots                     |
 * |-------------|--------------------------------------------------------------------|-------------------------------------|
 * | `announced` | records a webhook announced (someone waits for that change)        | first: as soon as a slot frees      |
 * | `current`   | the incremental pull of a connection already synced, a CLI command | as they free                        |
 * | `history`   | a first sync, a backfill window, a repair, a reconcile's reads     | paced: one per `paceMs`; while announced reads wait, one per `yieldPaceMs` |
 *
 * Why a pace: the minute is a rolling log, so a slot frees 60 s after it was taken. History taken in a
 * burst (a page's details read five at once) frees in the same burst a minute later, and a fresh change
 * announced meanwhile would wait up to a minute for it. Paced, history frees a slot every `paceMs`, and an
 * announced read waiting for one (counted in Redis, so every process's history yields) takes it, while
 * history keeps `HISTORY_FLOOR_SHARE` of the minute: it never stops. A pace wait is a quota wait like a
 * minute slot's: waited in place up to the in-place cap (Zoho Books' 667 ms, QuickBooks' 134 ms), else the
 * job gives its worker slot back when it can (Xero's 1.09 s: a sorted stream, saved page by page).
 * Only connections that take webhooks pace their history (`historyLane`).
 */
export type QuotaLane = 'announced' | 'current' | 'history';

/**
 * History's lane where announced reads can come (the connection takes webhooks); elsewhere nothing waits
 * ahead of history, and pacing it would only slow it where its waits are simulated or cut short.
 */
export const historyLane = (takesWebhooks: boolean): QuotaLane => (takesWebhooks ? 'history' : 'current');

/** The share of the minute budget history keeps while announced reads wait for the connection's quota. */
export const HISTORY_FLOOR_SHARE = 0.2;

/** How far apart a lane's calls are taken: 0 = not paced. */
export interface QuotaLaneRule {
  paceMs: number;
  /** While announced reads of the connection wait. */
  yieldPaceMs: number;
}

export function quotaLaneRule(lane: QuotaLane, perMinute: number): QuotaLaneRule {
  if (lane !== 'history' || perMinute <= 0) return { paceMs: 0, yieldPaceMs: 0 };
  const floor = Math.max(1, Math.floor(perMinute * HISTORY_FLOOR_SHARE));
  return { paceMs: Math.ceil(MINUTE_WINDOW_MS / perMinute), yieldPaceMs: Math.ceil(MINUTE_WINDOW_MS / floor) };
}

/** A quota slot request that could not take a slot now (take-quota-6.lua's answer and the job's policy). */
export interface QuotaSlotWait {
  /** How long until a slot (or the park's end). */
  waitMs: number;
  /** The connection is parked or its day is spent. */
  parked: boolean;
  /** Every concurrency slot is busy (polled), rather than a minute slot at a known instant. */
  concurrency: boolean;
  /** History's next paced slot (`quotaLaneRule`), not the quota itself. */
  paced?: boolean;
  /** The longest park waited in place (a caller outside a job may wait for it). */
  maxParkWaitMs: number;
  /** The running job's policy (src/pipeline/quota-wait-policy.ts), when there is one. */
  policy?: { maxInPlaceWaitMs: number; deferrable(): boolean };
  /** The job's own calls hold slots: they free one soon. */
  waitingOnItself: boolean;
}

/** Wait in place (the quota slots poll), or park the job for `waitMs`. */
export type QuotaSlotDecision = { kind: 'wait-in-place' } | { kind: 'park'; waitMs: number; why: string };

export function decideQuotaSlot(w: QuotaSlotWait): QuotaSlotDecision {
  if (w.parked)
    return w.waitMs > w.maxParkWaitMs
      ? { kind: 'park', waitMs: w.waitMs, why: 'vendor quota spent' }
      : { kind: 'wait-in-place' };
  // A job whose own calls hold slots (a pull fetching details several at once) waits on for a
  // concurrency slot: deferred, it would meet its own calls again on every start and never finish a page.
  if (
    w.policy &&
    w.waitMs > w.policy.maxInPlaceWaitMs &&
    !(w.concurrency && w.waitingOnItself) &&
    w.policy.deferrable()
  ) {
    if (w.concurrency) return { kind: 'park', waitMs: 1_000, why: 'vendor concurrency: every slot busy' };
    return w.paced
      ? { kind: 'park', waitMs: w.waitMs, why: 'history paced behind announced reads: next slot then' }
      : { kind: 'park', waitMs: w.waitMs, why: 'vendor minute quota: next slot then' };
  }
  return { kind: 'wait-in-place' };
}

/**
 * A pull that failed transiently (after its call's own retries) on a retry of its job: the vendor is
 * down. The job waits for it, parked for `retryMs` at a time, without spending attempts.
 */
export function decideVendorFailure(
  transient: boolean,
  attemptsMade: number,
  now: number,
  retryMs: number,
): WaitDecision | undefined {
  return transient && attemptsMade >= 1 ? { kind: 'park', untilMs: now + retryMs } : undefined;
}

/** How a parked job is delayed: a wait for the next minute slot is routine (`quota`), a longer park is news (`park`). */
export function deferralOfPark(untilMs: number, now: number): { reason: 'quota' | 'park'; jitterMs: number } {
  return untilMs - now < MINUTE_WINDOW_MS ? { reason: 'quota', jitterMs: 250 } : { reason: 'park', jitterMs: 1_000 };
}
