import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';

/** Why the last incremental pull of a stream failed (cleared by the next success). */
export interface PullFailure {
  /** ms since epoch. */
  at: number;
  message: string;
}

/** What the in-flight sweep (jobs/sweep/sweep-processor.ts) found over time. */
export interface SweepStatus {
  /** ms since epoch of its last run, and of the last run that recovered something. */
  lastRun?: number;
  lastRecovered?: number;
  /** Records recovered in all (re-enqueued, or quarantined after an unaccounted failure). */
  recovered: number;
}

export interface StreamSyncStatus {
  /** By entity: when its last incremental pull finished (ms since epoch). */
  lastSuccess: Record<string, number>;
  /** By entity: the last failure since that success. */
  lastError: Record<string, PullFailure>;
}

/** Error messages kept, at most (they come from src/errors and carry no secrets). */
const MESSAGE_MAX = 500;

/**
 * What `erp-sync status` and /metrics show per stream: last success and, next to it, why incremental
 * pulls fail. One incremental pull of a stream runs at a time (its lock), so these never race each other.
 */
export class SyncStatus {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  /** A whole incremental read finished: the success time is set and the last error cleared, together. */
  async recordSuccess(connection: string, entity: string, at = Date.now()): Promise<void> {
    await this.redis
      .multi()
      .hset(this.keys.lastSuccess(connection), entity, String(at))
      .hdel(this.keys.lastError(connection), entity)
      .exec();
  }

  async recordLastError(connection: string, entity: string, message: string, at = Date.now()): Promise<void> {
    const failure: PullFailure = { at, message: message.slice(0, MESSAGE_MAX) };
    await this.redis.hset(this.keys.lastError(connection), entity, JSON.stringify(failure));
  }

  /** One sweep of the connection's in-flight records: `recovered` of them had been about to be lost. */
  async recordSweep(connection: string, recovered: number, at = Date.now()): Promise<void> {
    const m = this.redis.multi().hset(this.keys.sweep(connection), 'lastRun', String(at));
    if (recovered > 0)
      m.hincrby(this.keys.sweep(connection), 'recovered', recovered).hset(
        this.keys.sweep(connection),
        'lastRecovered',
        String(at),
      );
    await m.exec();
  }

  async readSweep(connection: string): Promise<SweepStatus> {
    const h = await this.redis.hgetall(this.keys.sweep(connection));
    return {
      lastRun: h.lastRun ? Number(h.lastRun) : undefined,
      lastRecovered: h.lastRecovered ? Number(h.lastRecovered) : undefined,
      recovered: Number(h.recovered ?? 0),
    };
  }

  async read(connection: string): Promise<StreamSyncStatus> {
    const [success, errors] = await Promise.all([
      this.redis.hgetall(this.keys.lastSuccess(connection)),
      this.redis.hgetall(this.keys.lastError(connection)),
    ]);
    return {
      lastSuccess: Object.fromEntries(Object.entries(success).map(([entity, ms]) => [entity, Number(ms)])),
      lastError: Object.fromEntries(
        Object.entries(errors).map(([entity, json]) => [entity, JSON.parse(json) as PullFailure]),
      ),
    };
  }
}
