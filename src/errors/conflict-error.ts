import { SyncError } from './sync-error.js';

/** 409: the remote state forbids the write (e.g. upserting an invoice deleted in billing). Needs a person. */
export class ConflictError extends SyncError {
  readonly code = 'SYNC_ERR_CONFLICT';
  readonly retryable = false;
}
