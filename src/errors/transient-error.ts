import { SyncError } from './sync-error.js';

/** 5xx, 408, timeouts, resets, refused connections: retry with backoff. */
export class TransientError extends SyncError {
  readonly code = 'SYNC_ERR_TRANSIENT';
  readonly retryable = true;
}
