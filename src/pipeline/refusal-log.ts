import type { Redis } from 'ioredis';
import type { AuditEntry, AuditQuery } from './audit-entry.js';
import { readStream } from './audit-stream.js';

/** Why a request was refused before it could act: a role too low for the route (403), a console sign-in with a token not configured (401). */
export const REFUSAL_REASONS = ['role', 'sign-in'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** What counts refusals (erpsync_api_refusals_total): `kept` says whether the entry was written or only counted. */
export interface RefusalCounter {
  inc(labels: { reason: RefusalReason; kept: 'true' | 'false' }): void;
}

export interface RefusalLogOptions {
  /** The stream's bound (XADD MAXLEN ~). @defaultValue 10,000 */
  maxEntries?: number;
  /** Entries written per caller (a token's name, or a client address) a minute; past it refusals are only counted. @defaultValue 10 */
  perSourcePerMinute?: number;
  counter?: RefusalCounter;
  /** The clock of the per-minute shares (tests hold it still). */
  now?: () => number;
}

export const REFUSALS_MAX_ENTRIES = 10_000;
export const REFUSALS_PER_SOURCE_PER_MINUTE = 10;

/**
 * Refused requests, apart from the action log (audit-log.ts): a stream of its own (`<prefix>:audit:refusals`),
 * trimmed to about `maxEntries` at every append, so a caller who is refused again and again fills this
 * stream at most, never the record of what was done. Each source (a token's name, a client address) writes
 * at most `perSourcePerMinute` entries a minute (a counter per source and minute, expiring with it), so one
 * source cannot push every other source's refusals out either; every refusal is counted all the same.
 */
export class RefusalLog {
  readonly key: string;
  readonly maxEntries: number;
  readonly perSourcePerMinute: number;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly options: RefusalLogOptions = {},
  ) {
    this.key = `${prefix}:audit:refusals`;
    this.maxEntries = options.maxEntries ?? REFUSALS_MAX_ENTRIES;
    this.perSourcePerMinute = options.perSourcePerMinute ?? REFUSALS_PER_SOURCE_PER_MINUTE;
  }

  /** Counts a refusal and, within `source`'s share of the minute, writes it; resolves to whether it was written. */
  async record(reason: RefusalReason, source: string, e: Omit<AuditEntry, 'id' | 'at'>): Promise<boolean> {
    const now = (this.options.now ?? Date.now)();
    const minute = Math.floor(now / 60_000);
    const rate = `${this.prefix}:audit:refusals:rate:${minute}:${source.slice(0, 100)}`;
    const replies = await this.redis.multi().incr(rate).expire(rate, 120, 'NX').exec();
    const kept = Number(replies?.[0]?.[1] ?? 0) <= this.perSourcePerMinute;
    this.options.counter?.inc({ reason, kept: kept ? 'true' : 'false' });
    if (!kept) return false;
    const entry = JSON.stringify({ ...e, at: now });
    await this.redis.xadd(this.key, 'MAXLEN', '~', String(this.maxEntries), '*', 'e', entry);
    return true;
  }

  /** Entries newest first, as AuditLog.list. */
  list(q: AuditQuery): Promise<AuditEntry[]> {
    return readStream(this.redis, this.key, q);
  }

  size(): Promise<number> {
    return this.redis.xlen(this.key);
  }
}
