import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';
import { LuaScript } from './lua-script.js';

const TAKE = LuaScript.load('take-connection-slot-1');

/**
 * How many jobs of one connection run at once, across every worker process (`sync.maxJobsPerConnection`):
 * a connection with a long backfill cannot fill a worker's slots while other connections wait. A job that
 * finds its connection's slots taken goes back to the queue for a moment (jobs/define-job.ts), without
 * using an attempt. A slot is a lease renewed while its job runs, so a dead worker's slot frees itself.
 */
export class ConnectionSlots {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes or renews the slot of `jobId`; false when `max` other jobs of the connection hold one. */
  async take(connection: string, jobId: string, max: number, leaseMs: number): Promise<boolean> {
    return (
      (await TAKE.run(this.redis, [this.keys.connectionSlots(connection)], [this.now(), jobId, leaseMs, max])) === 1
    );
  }

  async release(connection: string, jobId: string): Promise<void> {
    await this.redis.zrem(this.keys.connectionSlots(connection), jobId);
  }

  /** Jobs of the connection running now. */
  async running(connection: string): Promise<number> {
    return this.redis.zcount(this.keys.connectionSlots(connection), this.now(), '+inf');
  }
}
