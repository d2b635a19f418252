import { SyncError } from './sync-error.js';

/**
 * The remote side refused the request for a reason a retry cannot fix (400, 404, 405, 413, 422):
 * the record is quarantined with the service's own message.
 */
export class RejectedError extends SyncError {
  readonly code = 'SYNC_ERR_REJECTED';
  readonly retryable = false;
}
