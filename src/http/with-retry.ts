import { setTimeout as sleep } from 'node:timers/promises';
import pRetry from 'p-retry';
import { ParkedError, RateLimitedError, SyncError } from '../errors/index.js';
import { decideRateLimited } from '../waits/vendor-waits.js';

/** The longest Retry-After waited for in-process unless a policy says otherwise (src/waits/vendor-waits.ts). */
export const DEFAULT_MAX_IN_PLACE_WAIT_MS = 5_000;

export interface RetryPolicy {
  /** Retries after the first attempt. @defaultValue 2 */
  retries?: number;
  /** First backoff, ms. @defaultValue 200 */
  minTimeoutMs?: number;
  /** Longest backoff, ms. @defaultValue 2000 */
  maxTimeoutMs?: number;
  /** Stop retrying in-process after this long, ms. @defaultValue 10000 */
  maxRetryTimeMs?: number;
  /**
   * Whether a RateLimitedError is retried here (waiting its Retry-After). Billing says no: its 429s
   * go to BullMQ's queue rate limit. Vendor calls say yes for short waits.
   * @defaultValue false
   */
  retryRateLimited?: boolean;
  /** A Retry-After longer than this is not waited for in-process; the error goes up. @defaultValue 5000 */
  maxRetryAfterMs?: number;
  signal?: AbortSignal;
  onRetry?: (error: SyncError, attempt: number) => void;
}

/**
 * p-retry around ONE remote call. Retries only errors whose class says `retryable`, honours
 * Retry-After up to `maxRetryAfterMs`, and never retries non-SyncErrors (programming errors).
 * Worst case per call: 1 + retries attempts.
 */
export function withRetry<T>(fn: (attempt: number) => Promise<T>, policy: RetryPolicy = {}): Promise<T> {
  const maxRetryAfter = policy.maxRetryAfterMs ?? DEFAULT_MAX_IN_PLACE_WAIT_MS;
  return pRetry(fn, {
    retries: policy.retries ?? 2,
    minTimeout: policy.minTimeoutMs ?? 200,
    maxTimeout: policy.maxTimeoutMs ?? 2_000,
    maxRetryTime: policy.maxRetryTimeMs ?? 10_000,
    randomize: true,
    signal: policy.signal,
    shouldRetry: async ({ error, attemptNumber }) => {
      if (!(error instanceof SyncError) || !error.retryable) return false;
      // A park is waited out by delaying the job (jobs/define-job.ts), never here.
      if (error instanceof ParkedError) return false;
      if (error instanceof RateLimitedError) {
        if (!policy.retryRateLimited || decideRateLimited(error, maxRetryAfter, Date.now()).kind !== 'wait-in-place')
          return false;
        if (error.retryAfterMs !== undefined) await sleep(error.retryAfterMs, undefined, { signal: policy.signal });
      } else if (error.retryAfterMs !== undefined) {
        if (error.retryAfterMs > maxRetryAfter) return false;
        await sleep(error.retryAfterMs, undefined, { signal: policy.signal });
      }
      policy.onRetry?.(error, attemptNumber);
      return true;
    },
  });
}
