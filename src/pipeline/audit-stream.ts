import type { Redis } from 'ioredis';
import type { AuditEntry, AuditQuery } from './audit-entry.js';

/** Entries read per round trip while filtering a page. */
const SCAN = 200;

/** The entries of an audit stream (the action log or the refusals), newest first, `limit` at most, after the cursor and passing the filter. */
export async function readStream(redis: Redis, key: string, q: AuditQuery): Promise<AuditEntry[]> {
  const out: AuditEntry[] = [];
  let end = q.before ? `(${q.before}` : '+';
  for (;;) {
    const batch = await redis.xrevrange(key, end, '-', 'COUNT', q.connection ? SCAN : q.limit);
    for (const [id, fields] of batch) {
      const e = { ...(JSON.parse(fields[1] ?? '{}') as Omit<AuditEntry, 'id'>), id };
      if (!q.connection || (e.connection !== undefined && q.connection(e.connection))) out.push(e);
      if (out.length >= q.limit) return out;
    }
    if (!q.connection || batch.length < SCAN) return out;
    end = `(${batch[batch.length - 1]![0]}`;
  }
}
