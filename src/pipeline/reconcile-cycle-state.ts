import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';

/**
 * Where one connection's history cycle stands: the scheduled reconcile walks the invoice dates of the
 * connection's whole history a slice per run, so every date is reconciled once per cycle.
 */
export interface CycleProgress {
  /** When this cycle began (ms since epoch). */
  startedAt: number;
  /** Scheduled runs that took a slice in this cycle. */
  runs: number;
  /** The next invoice day (days since 1970-01-01) to reconcile. */
  nextDay: number;
  /** When the last cycle was completed (ms since epoch), if one was. */
  lastCompletedAt?: number;
}

/** The cycle state per connection, one JSON value in Redis (a scheduled reconcile of a connection runs one at a time). */
export class ReconcileCycleState {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  async get(connection: string): Promise<CycleProgress | undefined> {
    const raw = await this.redis.get(this.keys.reconcileCycle(connection));
    return raw ? (JSON.parse(raw) as CycleProgress) : undefined;
  }

  async set(connection: string, progress: CycleProgress): Promise<void> {
    await this.redis.set(this.keys.reconcileCycle(connection), JSON.stringify(progress));
  }
}
