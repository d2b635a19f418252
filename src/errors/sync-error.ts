/**
 * Base of the error hierarchy. The class says whether to retry: every layer (p-retry inside a job,
 * BullMQ between attempts, the quarantine) reads `retryable` and `retryAfterMs`, never a status code.
 * Messages never carry keys, tokens or request headers.
 */
export interface SyncErrorOptions {
  cause?: unknown;
  status?: number;
  retryAfterMs?: number;
  /** Where the error happened: "billing", "zoho-books", ... */
  source?: string;
  /** Which endpoint or operation, e.g. "POST /external/invoice/upsert". */
  operation?: string;
}

export abstract class SyncError extends Error {
  abstract readonly code: string;
  abstract readonly retryable: boolean;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly source?: string;
  readonly operation?: string;

  constructor(message: string, options: SyncErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.source = options.source;
    this.operation = options.operation;
  }

  /** A log-safe view: no cause chain objects, no request options. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      status: this.status,
      retryAfterMs: this.retryAfterMs,
      source: this.source,
      operation: this.operation,
    };
  }
}
