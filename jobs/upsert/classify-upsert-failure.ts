import { ConflictError, RateLimitedError, SyncError } from '../../src/errors/index.js';
import { type BillingScope, type BillingWait, decideBillingWait } from '../../src/waits/billing-waits.js';
import { DependencyMissingError } from './dependency-missing-error.js';

/** Why a record is quarantined when billing refuses it for what it is. */
export type UpsertQuarantineReason = 'DEPENDENCY_MISSING' | 'BILLING_CONFLICT' | 'BILLING_AUTH' | 'BILLING_REJECTED';

/**
 * What a failed upsert of one record does. Billing's "not now" is decided by src/waits/billing-waits.ts;
 * what is left is quarantine or a retry:
 *
 * | the failure                                            | action                                          |
 * |--------------------------------------------------------|-------------------------------------------------|
 * | a 429 (RateLimitedError)                               | billing's wait for the scope: `pause-key` or `pause-queue` |
 * | billing down (the breaker says so after this failure)  | `wait-for-billing`                              |
 * | a non-retryable SyncError                              | `quarantine`, with its reason (below), then the job fails |
 * | anything else                                          | `retry`: the job's attempt fails, BullMQ retries it |
 *
 * Quarantine reasons: a credit note whose invoices will not come `DEPENDENCY_MISSING`; a 409
 * `BILLING_CONFLICT`; a refused key `BILLING_AUTH`; any other refusal `BILLING_REJECTED`.
 * `billingDown` is the breaker's answer to this failure (it is never asked about a 429).
 */
export type UpsertFailure =
  BillingWait | { action: 'quarantine'; reason: UpsertQuarantineReason } | { action: 'retry' };

export function classifyUpsertFailure(
  err: unknown,
  billing: { scope: BillingScope; billingDown: boolean },
): UpsertFailure {
  if (err instanceof RateLimitedError)
    return decideBillingWait({ kind: 'rate-limited', retryAfterMs: err.retryAfterMs, scope: billing.scope });
  if (billing.billingDown) return decideBillingWait({ kind: 'down' });
  if (err instanceof SyncError && !err.retryable) return { action: 'quarantine', reason: quarantineReason(err) };
  return { action: 'retry' };
}

function quarantineReason(err: SyncError): UpsertQuarantineReason {
  if (err instanceof DependencyMissingError) return 'DEPENDENCY_MISSING';
  if (err instanceof ConflictError) return 'BILLING_CONFLICT';
  if (err.code === 'SYNC_ERR_AUTH_REJECTED') return 'BILLING_AUTH';
  return 'BILLING_REJECTED';
}
