/**
 * What billing's "not now" means for an upsert, decided here alone (jobs/upsert/upsert-processor.ts acts on the answer).
 * Billing limits requests per key or per deployment (`billing.rateLimit.scope`); its 429 carries
 * Retry-After, and billing's client does not retry it in place (src/http/with-retry.ts).
 *
 * | signal                                              | scope      | action                                                        |
 * |-----------------------------------------------------|------------|---------------------------------------------------------------|
 * | 429, Retry-After r (1 s when absent, at least 100 ms) | key        | `pause-key`: pause the key's budget for r; the record comes back at its slot after the pause |
 * | 429, Retry-After r (1 s when absent, at least 100 ms) | deployment | `pause-queue`: pause the upsert queue and the deployment's budget for r; the job waits in the paused queue |
 * | the key's window is full: next slot in w > 0 ms     | key        | `wait-for-slot`: the record is set aside until its slot       |
 * | billing down (the breaker's count reached, or marked down by another process) | any | `wait-for-billing`: the job waits in the paused queue |
 *
 * Every action keeps the job's attempt: a record is quarantined for what it is, never because billing
 * was busy or away. The pause of the queue for an outage is set by jobs/admission/billing-outage.ts.
 */
export type BillingScope = 'key' | 'deployment';

export type BillingSignal =
  | { kind: 'rate-limited'; retryAfterMs?: number; scope: BillingScope }
  | { kind: 'window-full'; waitMs: number }
  | { kind: 'down' };

export type BillingWait =
  | { action: 'pause-key'; pauseMs: number }
  | { action: 'pause-queue'; pauseMs: number }
  | { action: 'wait-for-slot'; waitMs: number }
  | { action: 'wait-for-billing' };

/** "Retry-After: 0" still pauses briefly (and Redis refuses a 0 ms expiry). */
export const MIN_PAUSE_MS = 100;
/** A 429 without Retry-After pauses this long. */
export const DEFAULT_PAUSE_MS = 1_000;

export function decideBillingWait(signal: BillingSignal): BillingWait {
  switch (signal.kind) {
    case 'rate-limited': {
      const pauseMs = Math.max(signal.retryAfterMs ?? DEFAULT_PAUSE_MS, MIN_PAUSE_MS);
      return signal.scope === 'key' ? { action: 'pause-key', pauseMs } : { action: 'pause-queue', pauseMs };
    }
    case 'window-full':
      return { action: 'wait-for-slot', waitMs: signal.waitMs };
    case 'down':
      return { action: 'wait-for-billing' };
  }
}
