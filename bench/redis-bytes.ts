import type { Redis } from 'ioredis';

/** Bytes Redis holds for the keys under `prefix`, by family, from MEMORY USAGE (exact: SAMPLES 0). */
export interface RedisBytes {
  keys: number;
  bytes: number;
  families: Array<{ family: string; keys: number; bytes: number }>;
}

/**
 * A key's family: what follows the prefix up to the first id, e.g. `ledger`, `in-flight`, or for
 * BullMQ's keys `upsert:<job>` (one hash per job kept) and `upsert:completed` (the set naming them).
 */
function familyOf(prefix: string, key: string): string {
  const rest = key.slice(prefix.length + 1).split(':');
  const [head, second] = rest;
  const queueKeys = new Set([
    'wait',
    'paused',
    'active',
    'delayed',
    'prioritized',
    'completed',
    'failed',
    'stalled',
    'events',
    'meta',
    'id',
    'pc',
    'marker',
    'limiter',
    'de',
    'repeat',
    'waiting-children',
    'stalled-check',
  ]);
  if (['upsert', 'pull', 'backfill', 'reconcile', 'sweep'].includes(head!))
    return second && queueKeys.has(second) ? `${head}:${second}` : `${head}:<job>`;
  return head!;
}

export async function redisBytes(redis: Redis, prefix: string): Promise<RedisBytes> {
  const families = new Map<string, { keys: number; bytes: number }>();
  let cursor = '0';
  let keys = 0;
  let bytes = 0;
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (!batch.length) continue;
    const pipe = redis.pipeline();
    for (const k of batch) pipe.memory('USAGE', k, 'SAMPLES', 0);
    const sizes = (await pipe.exec())!.map(([, v]) => Number(v ?? 0));
    batch.forEach((k, i) => {
      const f = familyOf(prefix, k);
      const e = families.get(f) ?? { keys: 0, bytes: 0 };
      e.keys++;
      e.bytes += sizes[i]!;
      families.set(f, e);
      keys++;
      bytes += sizes[i]!;
    });
  } while (cursor !== '0');
  return {
    keys,
    bytes,
    families: [...families].map(([family, v]) => ({ family, ...v })).sort((a, b) => b.bytes - a.bytes),
  };
}

/** The table rows: family, keys, bytes, bytes per record. */
export function redisBytesRows(r: RedisBytes, records: number): string[] {
  return [
    ...r.families
      .filter((f) => f.bytes >= 1024)
      .map(
        (f) =>
          `| ${f.family} | ${f.keys.toLocaleString('en')} | ${f.bytes.toLocaleString('en')} | ${(f.bytes / records).toFixed(0)} |`,
      ),
    `| **all** | ${r.keys.toLocaleString('en')} | ${r.bytes.toLocaleString('en')} | **${(r.bytes / records).toFixed(0)}** |`,
  ];
}
