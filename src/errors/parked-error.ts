import { SyncError, type SyncErrorOptions } from './sync-error.js';

/**
 * The connection is parked until `untilMs`: its vendor quota is spent, or the vendor asked for a wait
 * longer than is worth holding a worker for. Not a failure: the job that met it is delayed until then
 * without using an attempt (jobs/define-job.ts), and the worker slot serves other connections.
 */
export class ParkedError extends SyncError {
  readonly code = 'SYNC_ERR_PARKED';
  readonly retryable = true;

  /**
   * When many jobs wait for the same thing (the next slot of a spent minute), how far apart to wake them:
   * the vendor frees one slot per this many ms on average.
   */
  readonly spacingMs?: number;

  constructor(
    readonly connection: string,
    readonly untilMs: number,
    options: SyncErrorOptions & { why?: string; spacingMs?: number } = {},
  ) {
    super(
      `connection ${connection} is parked until ${new Date(untilMs).toISOString()} (${options.why ?? 'vendor quota'})`,
      options,
    );
    this.spacingMs = options.spacingMs;
  }
}
