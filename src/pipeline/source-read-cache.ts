import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';

/** How long a record read from the source for a person is shown again instead of read again. @defaultValue 5 minutes */
export const SOURCE_READ_CACHE_SECONDS = 300;
/** A read larger than this (JSON) is shown but not kept: the cache holds small records only. */
export const SOURCE_READ_MAX_BYTES = 256 * 1024;

/** A read as kept: what was read, and when (ms since epoch). */
export interface CachedRead<T> {
  read: T;
  readAt: number;
}

/**
 * Records read from the source for a person (the quarantine page's "read from the source"), one Redis key
 * per record under a TTL, shared by every worker: the same record asked again within the TTL is answered
 * from here, not from the vendor's quota. Bounded by the TTL and a size cap per record.
 */
export class SourceReadCache<T> {
  constructor(
    private readonly redis: Redis,
    private readonly keys: Pick<StateKeys, 'sourceRead'>,
    readonly ttlSeconds = SOURCE_READ_CACHE_SECONDS,
  ) {}

  async get(connection: string, entity: string, erpId: string): Promise<CachedRead<T> | undefined> {
    const raw = await this.redis.get(this.keys.sourceRead(connection, entity, erpId));
    return raw ? (JSON.parse(raw) as CachedRead<T>) : undefined;
  }

  /** Keeps a read for the TTL (not one over the size cap). */
  async put(connection: string, entity: string, erpId: string, kept: CachedRead<T>): Promise<void> {
    const json = JSON.stringify(kept);
    if (Buffer.byteLength(json) > SOURCE_READ_MAX_BYTES) return;
    await this.redis.set(this.keys.sourceRead(connection, entity, erpId), json, 'EX', this.ttlSeconds);
  }
}
