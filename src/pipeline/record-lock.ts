import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createLogger } from '../observability/logger.js';
import type { StateKeys } from './keys.js';
import { LeaseKeeper } from './lease-keeper.js';
import { LuaScript } from './lua-script.js';

const ACQUIRE = LuaScript.load('acquire-lock-1');
const RELEASE = LuaScript.load('release-lock-1');

/** Releases a lock if it is still ours (a lock that expired and was taken by another owner is left alone). */
export type ReleaseLock = () => Promise<void>;

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
    /** Renews the incremental-pull locks: the process's keeper (a lock store built alone makes one, reporting to the default logger, at its first pull lock). */
    private leases?: LeaseKeeper,
  ) {}

  /** Returns a release function, or undefined when another owner holds the lock. */
  async tryAcquire(
    connection: string,
    entity: string,
    erpId: string,
    ttlMs = 60_000,
    owner: string = randomUUID(),
  ): Promise<ReleaseLock | undefined> {
    return this.acquire(this.keys.recordLock(connection, entity, erpId), owner, ttlMs);
  }

  /**
   * Releases a record's lock if `owner` still holds it: a job that ended failed (its worker died, or it
   * was failed for stalling) leaves its lock behind, and the record's next job would wait out the TTL.
   */
  async release(connection: string, entity: string, erpId: string, owner: string): Promise<void> {
    await RELEASE.run(this.redis, [this.keys.recordLock(connection, entity, erpId)], [owner]);
  }

  /**
   * The lock of a stream's incremental pull: two at once would only duplicate work (and the slower one
   * could move the checkpoint back). Undefined when another pull of the stream holds it.
   *
   * Held for as long as the pull runs, however long: taken for `ttlMs`, then renewed by the same owner
   * (the lease keeper, every `ttlMs / 3`) until released. A first sync of a long history runs for hours
   * (1,000,000 Zoho invoices: about an hour); a lock that expired under it let the next scheduled pull start
   * the whole read again beside it. A pull whose process dies stops renewing: its lock lasts at most `ttlMs`
   * (and its own job, handed to another worker, takes it back at once).
   */
  async tryAcquireIncrementalPull(
    connection: string,
    entity: string,
    owner: string,
    ttlMs = 30 * 60_000,
  ): Promise<ReleaseLock | undefined> {
    const key = this.keys.recordLock(connection, `pull-${entity}`, 'incremental');
    const release = await this.acquire(key, owner, ttlMs);
    if (!release) return undefined;
    this.leases ??= new LeaseKeeper({ logger: createLogger() });
    const untrack = this.leases.track({
      kind: 'pull-lock',
      owner,
      ttlMs,
      renew: async () => (await ACQUIRE.run(this.redis, [key], [owner, String(ttlMs)])) === 1,
    });
    return async () => {
      untrack();
      await release();
    };
  }

  private async acquire(key: string, owner: string, ttlMs: number): Promise<ReleaseLock | undefined> {
    const ok = await ACQUIRE.run(this.redis, [key], [owner, String(ttlMs)]);
    if (ok !== 1) return undefined;
    return async () => {
      await RELEASE.run(this.redis, [key], [owner]);
    };
  }
}
