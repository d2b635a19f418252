import { SyncError } from './sync-error.js';

/** 401/403 or a refused token refresh. Never retried: the connection must be re-authorised. */
export class AuthError extends SyncError {
  readonly code = 'SYNC_ERR_AUTH_REJECTED';
  readonly retryable = false;
}
