import { SyncError } from './sync-error.js';

/** Invalid configuration or arguments. Never retried: a person must fix the input. */
export class ConfigError extends SyncError {
  readonly code = 'SYNC_ERR_CONFIG_INVALID';
  readonly retryable = false;
}
