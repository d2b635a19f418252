import { afterAll, describe, expect, it } from 'vitest';
import { stateKeys } from '../../src/pipeline/keys.js';
import { changedFields, type HistoryEntry, RecordHistory } from '../../src/pipeline/record-history.js';
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

  it('given days 90, when an outcome is appended 91 days after the last, then the older ones fall away, and the key expires 90 days after its last outcome', async () => {
    const t0 = now;
    await history.append(C, 'invoices', 'aged-1', written(1, t0));
    await history.append(C, 'invoices', 'aged-1', written(2, t0 + 10 * DAY_MS));
    now = t0 + 91 * DAY_MS;
    try {
      // Read before any append: the entry past 90 days is no longer listed.
      expect((await history.list(C, 'invoices', 'aged-1')).map((e) => e.hash)).toEqual(['000000000002']);
      await history.append(C, 'invoices', 'aged-1', written(3, now));
      const key = keys.recordHistory(C, 'invoices', 'aged-1');
      expect(await redis.llen(key)).toBe(2);
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
