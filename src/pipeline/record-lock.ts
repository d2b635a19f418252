import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';

// Free, or already this owner's (the same job taken back after its worker died): take it.
const ACQUIRE = `
local cur = redis.call('get', KEYS[1])
if cur and cur ~= ARGV[1] then return 0 end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * One upsert at a time per source record, across processes. Two versions of one invoice in flight
 * at once could reach billing in either order; with the lock, the second waits, then sees the ledger's
 * newer version and skips itself if it is older.
 *
 * Jobs pass their BullMQ job id as `owner`. A worker killed mid-job cannot release its locks; when
 * BullMQ hands the stalled job to another worker, the same job id takes its own lock over at once
 * instead of waiting out the TTL (other jobs — other versions of the record — still wait). Two runs of
 * one job id carry the same payload, so they never race each other with different content.
 */
export class RecordLock {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  /** Returns a release function, or undefined when another owner holds the lock. */
  async tryAcquire(
    connection: string,
    entity: string,
    erpId: string,
    ttlMs = 60_000,
    owner: string = randomUUID(),
  ): Promise<(() => Promise<void>) | undefined> {
    const key = this.keys.recordLock(connection, entity, erpId);
    const ok = await this.redis.eval(ACQUIRE, 1, key, owner, String(ttlMs));
    if (ok !== 1) return undefined;
    return async () => {
      await this.redis.eval(RELEASE, 1, key, owner);
    };
  }
}
