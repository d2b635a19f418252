import { afterAll, describe, expect, it } from 'vitest';
import { stateKeys } from '../../src/pipeline/keys.js';
import {
  changedFields,
  HISTORY_BUCKETS,
  HISTORY_PRUNE_SLICE,
  historyBucketOf,
  type HistoryEntry,
  RecordHistory,
} from '../../src/pipeline/record-history.js';
import { encodeHistoryEntry } from '../../src/pipeline/record-history-codec.js';
import { QuarantineWithHistory } from '../../src/pipeline/record-history-quarantine.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

const C = 'zoho-in';
const DAY_MS = 86_400_000;

/** The store on a real Redis, with a clock the test moves. */
describe('record history (the store)', () => {
  const prefix = testPrefix('record-history');
  const redis = connect();
  const keys = stateKeys(prefix);
  let now = Date.parse('2026-11-27T09:00:00.000Z');
  const history = new RecordHistory(redis, keys, { perRecord: 10, days: 90 }, () => now);
  const written = (n: number, at = now): HistoryEntry => ({
    outcome: 'written',
    at,
    version: new Date(at - 1000).toISOString(),
    hash: n.toString(16).padStart(12, '0'),
    path: 'poll',
    by: `up-${C}-inv-inv-${n}`,
    billingId: `inv.${C}.inv-1`,
    changed: ['invoiceTotal'],
  });
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });
  const bucketKey = (entity: string, erpId: string) => keys.recordHistoryBucket(C, entity, historyBucketOf(erpId));
  /** The record's entries as its bucket stores them (ERP id, then its entries joined, per record). */
  async function stored(entity: string, erpId: string): Promise<string[]> {
    const items = await redis.lrange(bucketKey(entity, erpId), 0, -1);
    for (let i = 0; i < items.length; i += 2) if (items[i] === erpId) return items[i + 1]!.split('%%');
    return [];
  }
  /** Two ERP ids (prefixed `stem`) of one bucket. */
  function sameBucket(stem: string): [string, string] {
    const seen = new Map<number, string>();
    for (let n = 0; ; n++) {
      const id = `${stem}-${n}`;
      const other = seen.get(historyBucketOf(id));
      if (other) return [other, id];
      seen.set(historyBucketOf(id), id);
    }
  }

  it('given outcomes appended one by one, when listed, then they come back oldest first, as they were given', async () => {
    const entries: HistoryEntry[] = [
      written(1),
      { outcome: 'unchanged', at: now + 1, version: '2026-11-27T08:59:59.000Z', hash: '000000000001', path: 'poll' },
      { outcome: 'quarantined', at: now + 2, version: '2026-11-27T09:00:00.000Z', reason: 'BILLING_REJECTED' },
      { outcome: 'replayed', at: now + 3, version: '2026-11-27T09:00:00.000Z', path: 'replay', by: 'up-x-r1' },
    ];
    for (const e of entries) await history.append(C, 'invoices', 'ordered-1', e);
    expect(await history.list(C, 'invoices', 'ordered-1')).toEqual(entries);
    expect(await history.list(C, 'invoices', 'never-seen')).toEqual([]);
  });

  it('given perRecord 10, when an 11th outcome is appended, then the first is gone and the other ten stay in order', async () => {
    for (let n = 1; n <= 11; n++) await history.append(C, 'invoices', 'bounded-1', written(n, now + n));
    const kept = await history.list(C, 'invoices', 'bounded-1');
    expect(kept).toHaveLength(10);
    expect(kept.map((e) => e.hash)).toEqual(
      Array.from({ length: 10 }, (_, i) => (i + 2).toString(16).padStart(12, '0')),
    );
  });

  it('given days 90, when an outcome is appended 91 days after the last, then the older ones fall away, and its bucket expires 90 days after its last outcome', async () => {
    const t0 = now;
    await history.append(C, 'invoices', 'aged-1', written(1, t0));
    await history.append(C, 'invoices', 'aged-1', written(2, t0 + 10 * DAY_MS));
    now = t0 + 91 * DAY_MS;
    try {
      // Read before any append: the entry past 90 days is no longer listed.
      expect((await history.list(C, 'invoices', 'aged-1')).map((e) => e.hash)).toEqual(['000000000002']);
      await history.append(C, 'invoices', 'aged-1', written(3, now));
      const key = bucketKey('invoices', 'aged-1');
      expect(await stored('invoices', 'aged-1')).toHaveLength(2);
      expect((await history.list(C, 'invoices', 'aged-1')).map((e) => e.hash)).toEqual([
        '000000000002',
        '000000000003',
      ]);
      const ttl = await redis.pttl(key);
      expect(ttl).toBeGreaterThan(89 * DAY_MS);
      expect(ttl).toBeLessThanOrEqual(90 * DAY_MS);
    } finally {
      now = t0;
    }
  });

  it('given records of two entities, when the connection is scanned, then each record comes with its entity, ERP id and history', async () => {
    await history.appendMany(C, 'credit-notes', [
      { erpId: 'cn:1', entry: written(7) },
      { erpId: 'cn-2', entry: written(8) },
    ]);
    const seen = new Map<string, HistoryEntry[]>();
    for await (const batch of history.scan(C)) for (const r of batch) seen.set(`${r.entity}/${r.erpId}`, r.entries);
    expect(seen.get('credit-notes/cn:1')).toEqual([written(7)]);
    expect(seen.get('credit-notes/cn-2')).toEqual([written(8)]);
    expect(seen.get('invoices/ordered-1')).toHaveLength(4);
  });

  it('given outcomes whose free text holds the separator, escapes and markers, when appended and listed, then each comes back whole', async () => {
    const odd: HistoryEntry[] = [
      { outcome: 'quarantined', at: now, version: '%%v|1%', reason: 'a %% b | c %25 , * @ #' },
      { outcome: 'written', at: now + 1, version: '%%', hash: '%%%%', by: `%%${C}%%odd-1`, changed: ['%%', 'x%'] },
      { outcome: 'stale', at: now + 2, reason: '%' },
    ];
    for (const e of odd) await history.append(C, 'invoices', 'odd-1', e);
    expect(await history.list(C, 'invoices', 'odd-1')).toEqual(odd);
    expect(await stored('invoices', 'odd-1')).toHaveLength(3);
  });

  it('given two records of one bucket, when one gets 11 outcomes, then it keeps its last ten and the other keeps its own, apart', async () => {
    const [a, b] = sameBucket('shared');
    await history.append(C, 'invoices', b, written(100));
    for (let n = 1; n <= 11; n++) await history.append(C, 'invoices', a, written(n, now + n));
    await history.append(C, 'invoices', b, written(101, now + 20));
    expect((await history.list(C, 'invoices', a)).map((e) => e.hash)).toEqual(
      Array.from({ length: 10 }, (_, i) => (i + 2).toString(16).padStart(12, '0')),
    );
    expect(await history.list(C, 'invoices', b)).toEqual([written(100), written(101, now + 20)]);
    expect(await redis.llen(bucketKey('invoices', a))).toBe(4);
    // The other entity's bucket of the same number is another key.
    expect(await history.list(C, 'customers', a)).toEqual([]);
  });

  it('given a record whose ERP id reads like the stored entries of another record of its bucket, when both are appended to and listed, then each keeps its own', async () => {
    const first: HistoryEntry = { outcome: 'written', at: now };
    const lookalike = encodeHistoryEntry({ connection: C, erpId: 'any' }, first);
    let other = 0;
    while (historyBucketOf(`lookalike-${other}`) !== historyBucketOf(lookalike)) other++;
    await history.append(C, 'invoices', `lookalike-${other}`, first);
    await history.append(C, 'invoices', lookalike, written(1));
    await history.append(C, 'invoices', lookalike, written(2, now + 1));
    expect(await history.list(C, 'invoices', `lookalike-${other}`)).toEqual([first]);
    expect(await history.list(C, 'invoices', lookalike)).toEqual([written(1), written(2, now + 1)]);
  });

  it('given a record untouched for 91 days in a bucket another record keeps in use, when the sweep has pruned its bucket, then it is gone and the other keeps its recent outcomes only', async () => {
    const t0 = now;
    const [idle, busy] = sameBucket('prune');
    await history.append(C, 'invoices', idle, written(1, t0));
    await history.append(C, 'invoices', busy, written(2, t0));
    await history.append(C, 'invoices', busy, written(3, t0 + 80 * DAY_MS));
    now = t0 + 91 * DAY_MS;
    try {
      await redis.set(keys.recordHistoryPrune(C), historyBucketOf(idle));
      const pruned = await history.prune(C);
      expect(pruned).toEqual({ buckets: HISTORY_PRUNE_SLICE, entries: 2, records: 1 });
      expect(await stored('invoices', idle)).toEqual([]);
      expect(await stored('invoices', busy)).toHaveLength(1);
      expect(await redis.llen(bucketKey('invoices', idle))).toBe(2);
      expect((await history.list(C, 'invoices', busy)).map((e) => e.hash)).toEqual(['000000000003']);
      // The next prune goes on from the next slice, round the buckets.
      expect(Number(await redis.get(keys.recordHistoryPrune(C)))).toBe(
        (historyBucketOf(idle) + HISTORY_PRUNE_SLICE) % HISTORY_BUCKETS,
      );
    } finally {
      now = t0;
    }
  });

  it('given 2,000 records over many buckets, when the connection is scanned in batches of 50, then each record comes exactly once with its history', async () => {
    const ids = Array.from({ length: 2000 }, (_, i) => `many-${i}`);
    await history.appendMany(
      C,
      'customers',
      ids.map((erpId, i) => ({ erpId, entry: written(i) })),
    );
    await history.appendMany(
      C,
      'customers',
      ids.slice(0, 700).map((erpId, i) => ({ erpId, entry: written(i, now + 1) })),
    );
    const seen = new Map<string, number>();
    for await (const batch of history.scan(C, 50)) {
      expect(batch.length).toBeLessThanOrEqual(50 * 2);
      for (const r of batch) {
        if (r.entity !== 'customers' || !r.erpId.startsWith('many-')) continue;
        expect(seen.has(r.erpId), r.erpId).toBe(false);
        seen.set(r.erpId, r.entries.length);
      }
    }
    expect(seen.size).toBe(2000);
    expect(seen.get('many-0')).toBe(2);
    expect(seen.get('many-1999')).toBe(1);
  });

  it('given a history an earlier release kept in a list of its own, when the record gets a new outcome, then list and scan give the earlier entries first, then the new, once', async () => {
    const legacy = keys.recordHistory(C, 'credit-notes', 'old-1');
    await redis.rpush(
      legacy,
      encodeHistoryEntry({ connection: C, erpId: 'old-1' }, written(50, now - 2)),
      encodeHistoryEntry({ connection: C, erpId: 'old-1' }, written(51, now - 1)),
    );
    await redis.rpush(
      keys.recordHistory(C, 'credit-notes', 'old-2'),
      encodeHistoryEntry({ connection: C, erpId: 'old-2' }, written(52, now - 1)),
    );
    await history.append(C, 'credit-notes', 'old-1', written(53));
    const expected = [written(50, now - 2), written(51, now - 1), written(53)];
    expect(await history.list(C, 'credit-notes', 'old-1')).toEqual(expected);
    const seen: Array<[string, HistoryEntry[]]> = [];
    for await (const batch of history.scan(C))
      for (const r of batch) if (r.erpId.startsWith('old-')) seen.push([r.erpId, r.entries]);
    expect(seen.sort((x, y) => x[0].localeCompare(y[0]))).toEqual([
      ['old-1', expected],
      ['old-2', [written(52, now - 1)]],
    ]);
  });

  it('given the quarantine store with history, when a record is quarantined, then its history has the outcome with the reason, the version and the hash of the payload', async () => {
    const quarantine = new QuarantineWithHistory(redis, keys, history);
    await quarantine.put({
      connection: C,
      entity: 'invoices',
      erpId: 'refused-1',
      version: '2026-11-27T08:00:00.000Z',
      reason: 'BILLING_REJECTED',
      message: 'billing: invoiceDate is in the future',
      stage: 'upsert',
      at: now,
      payload: { hash: 'ab'.repeat(32), path: 'webhook' },
    });
    expect(await history.list(C, 'invoices', 'refused-1')).toEqual([
      {
        outcome: 'quarantined',
        at: now,
        version: '2026-11-27T08:00:00.000Z',
        hash: 'abababababab',
        path: 'webhook',
        reason: 'BILLING_REJECTED',
      },
    ]);
    expect((await quarantine.get(C, 'invoices', 'refused-1'))?.reason).toBe('BILLING_REJECTED');
  });

  it('given two writes, when their fields are compared, then the names of those that differ come back (added and removed too), none when equal, undefined without a previous write', () => {
    const before = { invoiceTotal: '100.00', invoiceTax: '18.00', invoiceDueDate: '2026-12-01', referenceId: null };
    expect(changedFields(before, { ...before, invoiceTotal: '110.00', irnNumber: 'IRN1' })).toEqual([
      'invoiceTotal',
      'irnNumber',
    ]);
    expect(changedFields(before, { invoiceTotal: '100.00', invoiceTax: '18.00', referenceId: null })).toEqual([
      'invoiceDueDate',
    ]);
    expect(changedFields(before, { ...before })).toEqual([]);
    expect(changedFields(undefined, before)).toBeUndefined();
  });
});
