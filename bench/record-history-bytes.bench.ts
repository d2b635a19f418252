import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { upsertJobId } from '../jobs/upsert/enqueue-upserts.js';
import { deleteKeysWithPrefix, resolveRedis, stateConnection } from '../src/redis.js';
import { stateKeys } from '../src/pipeline/keys.js';
import {
  HISTORY_BUCKETS,
  historyBucketOf,
  type HistoryEntry,
  HISTORY_HASH_CHARS,
  RecordHistory,
} from '../src/pipeline/record-history.js';
import { arg, machine } from './bench-utils.js';
import { redisBytes } from './redis-bytes.js';

/**
 * What record history costs in Redis: `--records` records (default 100,000) of one Zoho connection, each
 * given `--entries` outcomes (default 10, the `history.perRecord` default; a list such as `1,3,10` runs
 * each in turn) through the store's own append (the Lua script that finds the record in its bucket, trims
 * it and sets the bucket's TTL), as a sync
 * writes them: the backfill's first write, then edits polled (writes naming 1 to 5 changed fields, one in
 * four an unchanged re-read), job ids as pulls make them, billing ids as billing gives them. Then MEMORY
 * USAGE (SAMPLES 0) of every history bucket (HISTORY_BUCKETS lists for the entity): bytes per entry and per
 * record, the keys, the lists and the ERP ids they hold included; and the mean time of one `appendMany` of
 * 500 records as the last outcome is appended (the buckets at their fullest), a round trip included, and
 * of one sweep's prune (32 buckets of each entity read whole).
 *
 *   npm run -s build && npx tsc -p tsconfig.bench.json && node dist/bench/record-history-bytes.bench.js [--records 100000] [--entries 1,3,10]
 */
const RECORDS = arg('records', 100_000);
const ENTRIES = (() => {
  const i = process.argv.indexOf('--entries');
  return (i >= 0 ? process.argv[i + 1]! : '10').split(',').map(Number);
})();
const CONNECTION = 'zoho-in';
const CHANGES: string[][] = [
  ['invoiceDueDate'],
  ['invoiceSubtotal', 'invoiceTax', 'invoiceTotal', 'digest:invoiceTax', 'digest:lineItems'],
  ['invoicePaidAmount'],
  ['referenceId', 'referenceText'],
  ['invoiceTotal', 'invoiceAdjustedAmount', 'digest:invoiceAmountAdjustments'],
];

/** Outcome `k` of record `i`, as the pipeline tells it. */
function entryOf(i: number, k: number, erpId: string, base: number): HistoryEntry {
  const at = base + k * 3_600_000 + i;
  const hash = randomBytes(32).toString('hex');
  const version = new Date(Math.floor((at - 20_000) / 1000) * 1000).toISOString();
  const common = {
    at,
    version,
    hash: hash.slice(0, HISTORY_HASH_CHARS),
    by: upsertJobId(CONNECTION, 'invoices', erpId, hash),
  };
  if (k === 0) return { ...common, outcome: 'written', path: 'backfill', billingId: `inv.${CONNECTION}.${erpId}` };
  if (k % 4 === 3) return { ...common, outcome: 'unchanged', path: 'poll' };
  return {
    ...common,
    outcome: 'written',
    path: 'poll',
    billingId: `inv.${CONNECTION}.${erpId}`,
    changed: CHANGES[(i + k) % CHANGES.length]!,
  };
}

async function measure(
  entries: number,
): Promise<{ bytes: number; keys: number; sample: string; lastCallMs: number; pruneMs: number }> {
  const redisUrl = (await resolveRedis()).url;
  const redis = stateConnection(redisUrl);
  const prefix = `bench-rh-${randomBytes(3).toString('hex')}`;
  const keys = stateKeys(prefix);
  const base = Date.now() - entries * 3_600_000;
  const history = new RecordHistory(redis, keys, { perRecord: Math.max(10, entries), days: 90 });
  const erpIds = Array.from({ length: RECORDS }, (_, i) => String(1_114_000_000_000_000 + i * 7));
  let lastCallMs = 0;
  try {
    for (let k = 0; k < entries; k++) {
      for (let i = 0; i < RECORDS; i += 500) {
        const items = erpIds.slice(i, i + 500).map((erpId, j) => ({ erpId, entry: entryOf(i + j, k, erpId, base) }));
        const t = performance.now();
        await history.appendMany(CONNECTION, 'invoices', items);
        if (k === entries - 1) lastCallMs += performance.now() - t;
      }
    }
    // One sweep's prune: 32 buckets of each entity read whole (nothing old enough to drop).
    const t = performance.now();
    await history.prune(CONNECTION);
    const pruneMs = performance.now() - t;
    const r = await redisBytes(redis, prefix);
    const family = r.families.find((f) => f.family === 'history-bucket')!;
    const sample = await lastStored(
      redis,
      keys.recordHistoryBucket(CONNECTION, 'invoices', historyBucketOf(erpIds[0]!)),
      erpIds[0]!,
    );
    return {
      bytes: family.bytes,
      keys: family.keys,
      sample,
      lastCallMs: lastCallMs / Math.ceil(RECORDS / 500),
      pruneMs,
    };
  } finally {
    await deleteKeysWithPrefix(redis, prefix);
    redis.disconnect();
  }
}

/** The record's last entry as its bucket stores it. */
async function lastStored(redis: Redis, bucket: string, erpId: string): Promise<string> {
  const items = await redis.lrange(bucket, 0, -1);
  for (let i = 0; i < items.length; i += 2) if (items[i] === erpId) return items[i + 1]!.split('%%').at(-1)!;
  return '';
}

async function main() {
  console.log(
    `record history in Redis: ${RECORDS.toLocaleString('en')} records, ${HISTORY_BUCKETS} buckets · ${machine()}`,
  );
  console.log(
    `| entries per record | keys | bytes | bytes per record | **bytes per entry** | ms per call of 500 (the last outcome) | ms of one sweep run's prune |`,
  );
  console.log('|---|---|---|---|---|---|---|');
  let sample = '';
  for (const n of ENTRIES) {
    const m = await measure(n);
    sample = m.sample;
    console.log(
      `| ${n} | ${m.keys.toLocaleString('en')} | ${m.bytes.toLocaleString('en')} | ${(m.bytes / RECORDS).toFixed(0)} | **${(m.bytes / (RECORDS * n)).toFixed(1)}** | ${m.lastCallMs.toFixed(1)} | ${m.pruneMs.toFixed(1)} |`,
    );
  }
  console.log(`a stored entry (${Buffer.byteLength(sample)} bytes): ${sample}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
