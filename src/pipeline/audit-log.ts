import type { Redis } from 'ioredis';
import { readStream } from './audit-stream.js';
import { RefusalLog, type RefusalLogOptions } from './refusal-log.js';
import type { AuditEntry, AuditQuery } from './audit-entry.js';

export { AUDIT_OUTCOMES, type AuditEntry, type AuditOutcome, type AuditQuery } from './audit-entry.js';

/** Days the action log keeps an entry by default (`audit.retentionDays`): a year and a month-end, for finance's yearly audit. */
export const AUDIT_RETENTION_DAYS = 400;
const DAY_MS = 86_400_000;

export interface AuditLogOptions {
  /** Entries older than this many days are dropped. @defaultValue 400 */
  retentionDays?: number;
  /** The refusals' stream, apart from the actions. */
  refusals?: RefusalLogOptions;
}

/**
 * The audit log of the HTTP API and the console: what was done (`<prefix>:audit`), and apart from it the
 * refused requests (`refusals`, refusal-log.ts). The action log is trimmed by age only, at every append
 * (XADD MINID: entries older than `retentionDays`, one atomic command), never by a count: a count can be
 * filled by whoever may append, and a refused caller appends only to the refusals. Used alone in every
 * command, so on a Redis Cluster its slot does not matter.
 */
export class AuditLog {
  readonly key: string;
  readonly retentionDays: number;
  readonly refusals: RefusalLog;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    options: AuditLogOptions = {},
  ) {
    this.key = `${prefix}:audit`;
    this.retentionDays = options.retentionDays ?? AUDIT_RETENTION_DAYS;
    this.refusals = new RefusalLog(redis, prefix, options.refusals);
  }

  /** Appends an entry of what was done; resolves once Redis has it. */
  async append(e: Omit<AuditEntry, 'id' | 'at'> & { at?: number }): Promise<string> {
    const now = Date.now();
    const entry = { ...e, at: e.at ?? now };
    const oldest = Math.max(0, now - this.retentionDays * DAY_MS);
    // Exact trimming (no ~): a whole stream node of 100 entries may hold entries of several months, and
    // what is older than the retention goes now, not when its node fills. Each append drops only what
    // aged out since the last one.
    const id = await this.redis.xadd(this.key, 'MINID', String(oldest), '*', 'e', JSON.stringify(entry));
    return id!;
  }

  /** Entries newest first, `limit` at most, after the cursor and passing the filter. */
  list(q: AuditQuery): Promise<AuditEntry[]> {
    return readStream(this.redis, this.key, q);
  }

  async size(): Promise<number> {
    return this.redis.xlen(this.key);
  }
}
