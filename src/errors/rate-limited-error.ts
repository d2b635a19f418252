import { SyncError, type SyncErrorOptions } from './sync-error.js';

/** 429 or a vendor throttle fault. Retryable after `retryAfterMs`; it does not count as a failed attempt. */
export class RateLimitedError extends SyncError {
  readonly code = 'SYNC_ERR_RATE_LIMITED';
  readonly retryable = true;
  /** 'minute' | 'day' | undefined: a day limit parks the connection instead of retrying soon. */
  readonly scope?: 'minute' | 'day';

  constructor(message: string, options: SyncErrorOptions & { retryAfterMs: number; scope?: 'minute' | 'day' }) {
    super(message, options);
    this.scope = options.scope;
  }
}
