import { SyncError } from './sync-error.js';

/**
 * A job someone waited for (a command run through the queue) ended failed. Its message is the job's
 * failed reason: the message of the error it failed with, in whichever worker ran it (the error's class
 * does not cross Redis).
 */
export class JobFailedError extends SyncError {
  readonly code = 'SYNC_ERR_JOB_FAILED';
  readonly retryable = false;
}
