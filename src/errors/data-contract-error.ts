import { SyncError, type SyncErrorOptions } from './sync-error.js';

/**
 * A payload did not match its schema. Carries the zod issue paths, never the payload itself
 * (records hold personal and financial data).
 */
export class DataContractError extends SyncError {
  readonly code = 'SYNC_ERR_DATA_CONTRACT';
  readonly retryable = false;
  readonly issues: string[];

  constructor(message: string, options: SyncErrorOptions & { issues?: string[] } = {}) {
    super(options.issues?.length ? `${message}: ${options.issues.join('; ')}` : message, options);
    this.issues = options.issues ?? [];
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), issues: this.issues };
  }
}
