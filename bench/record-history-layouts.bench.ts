import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { deleteKeysWithPrefix, resolveRedis, stateConnection } from '../src/redis.js';
import { HISTORY_ENTRY_SEPARATOR } from '../src/pipeline/record-history-codec.js';
import { arg, machine } from './bench-utils.js';
import { redisBytes } from './redis-bytes.js';

/**
 * Which Redis layout record history takes (the choice behind src/pipeline/record-history.ts): `--records`
 * records (default 100,000, 16-digit ERP ids) with 1, 3 and 10 entries each of one stored write (65 bytes,
 * as docs/benchmarks.md shows it), joined by HISTORY_ENTRY_SEPARATOR, written straight into (a) buckets
 * that are lists (ERP id, then the joined entries) and (b) buckets that are hashes (field ERP id, value the
 * joined entries), each with 1,024 and 4,096 buckets. MEMORY USAGE (SAMPLES 0) of every key, and the
 * encodings Redis chose. No store code: only the shapes are compared.
 *
 *   npx tsc -p tsconfig.bench.json && node dist/bench/record-history-layouts.bench.js [--records 100000]
 */
const RECORDS = arg('records', 100_000);
const ENTRY = 'w|mwzks1uf|mwzkrmc0|ea57f2f596b9|p|up-@-inv-*-#559a|inv.@.*|h,j,x';

function bucketOf(erpId: string, buckets: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < erpId.length; i++) h = Math.imul(h ^ erpId.charCodeAt(i), 0x01000193) >>> 0;
  return h % buckets;
}

async function measure(redis: Redis, kind: 'list' | 'hash', buckets: number, entries: number) {
  const prefix = `bench-rhl-${randomBytes(3).toString('hex')}`;
  const joined = Array.from({ length: entries }, () => ENTRY).join(HISTORY_ENTRY_SEPARATOR);
  try {
    for (let i = 0; i < RECORDS; i += 1000) {
      const pipeline = redis.pipeline();
      for (let j = i; j < Math.min(i + 1000, RECORDS); j++) {
        const erpId = String(1_114_000_000_000_000 + j * 7);
        const key = `${prefix}:b:${bucketOf(erpId, buckets)}`;
        if (kind === 'list') pipeline.rpush(key, erpId, joined);
        else pipeline.hset(key, erpId, joined);
      }
      await pipeline.exec();
    }
    const encoding = await redis.object('ENCODING', `${prefix}:b:0`);
    return { bytes: (await redisBytes(redis, prefix)).bytes, encoding };
  } finally {
    await deleteKeysWithPrefix(redis, prefix);
  }
}

async function main() {
  const redis = stateConnection((await resolveRedis()).url);
  console.log(`record history layouts: ${RECORDS.toLocaleString('en')} records · ${machine()}`);
  console.log('| layout | buckets | encoding | bytes per entry, 1 a record | 3 | 10 |');
  console.log('|---|---|---|---|---|---|');
  try {
    for (const kind of ['list', 'hash'] as const)
      for (const buckets of [1024, 4096]) {
        const per: string[] = [];
        let encoding: unknown;
        for (const entries of [1, 3, 10]) {
          const m = await measure(redis, kind, buckets, entries);
          per.push((m.bytes / (RECORDS * entries)).toFixed(1));
          encoding = m.encoding;
        }
        console.log(`| ${kind} | ${buckets.toLocaleString('en')} | ${String(encoding)} | ${per.join(' | ')} |`);
      }
  } finally {
    redis.disconnect();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
