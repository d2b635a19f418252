import type { Redis } from 'ioredis';

/** What became of a state-changing request. */
export const AUDIT_OUTCOMES = ['ok', 'refused', 'not-found', 'invalid', 'conflict', 'failed'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** One state-changing request: who (a token's name, never the token), what, on which connection or record, when, how it ended. */
export interface AuditEntry {
  /** The stream entry id (time-ordered): the paging cursor of `list`. */
  id: string;
  /** Epoch ms. */
  at: number;
  who: string;
  /** e.g. `connections.pause`, `quarantine.replay`. */
  action: string;
  connection?: string;
  /** `entity/erpId` for a request about one record. */
  record?: string;
  outcome: AuditOutcome;
  /** The HTTP status answered; 0 for a change made from the command line (`erp-sync review approve`, …). */
  status: number;
  /** A short summary of the request or its result (a pause reason, how many records were replayed, an error message). */
  detail?: string;
}

export interface AuditQuery {
  /** At most this many, newest first. */
  limit: number;
  /** Only entries older than this entry id (the previous page's last id). */
  before?: string;
  /** Only entries whose connection passes (a company-limited token); entries with no connection never do then. */
  connection?: (id: string) => boolean;
}

/** Entries read per round trip while filtering a page. */
const SCAN = 200;

/**
 * The audit log of the HTTP API: one Redis stream (`<prefix>:audit`), trimmed to about `maxEntries` at
 * every append (XADD MAXLEN ~, one atomic command: the log never grows past its bound by more than a
 * stream node). Used alone in every command, so on a Redis Cluster its slot does not matter.
 */
export class AuditLog {
  readonly key: string;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    readonly maxEntries = 10_000,
  ) {
    this.key = `${prefix}:audit`;
  }

  /** Appends an entry; resolves once Redis has it. */
  async append(e: Omit<AuditEntry, 'id' | 'at'> & { at?: number }): Promise<string> {
    const entry = { ...e, at: e.at ?? Date.now() };
    const id = await this.redis.xadd(this.key, 'MAXLEN', '~', String(this.maxEntries), '*', 'e', JSON.stringify(entry));
    return id!;
  }

  /** Entries newest first, `limit` at most, after the cursor and passing the filter. */
  async list(q: AuditQuery): Promise<AuditEntry[]> {
    const out: AuditEntry[] = [];
    let end = q.before ? `(${q.before}` : '+';
    for (;;) {
      const batch = await this.redis.xrevrange(this.key, end, '-', 'COUNT', q.connection ? SCAN : q.limit);
      for (const [id, fields] of batch) {
        const e = { ...(JSON.parse(fields[1] ?? '{}') as Omit<AuditEntry, 'id'>), id };
        if (!q.connection || (e.connection !== undefined && q.connection(e.connection))) out.push(e);
        if (out.length >= q.limit) return out;
      }
      if (!q.connection || batch.length < SCAN) return out;
      end = `(${batch[batch.length - 1]![0]}`;
    }
  }

  async size(): Promise<number> {
    return this.redis.xlen(this.key);
  }
}
