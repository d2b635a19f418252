import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateKeys } from '../../src/pipeline/keys.js';
import { dayOf, LedgerDateIndex } from '../../src/pipeline/ledger-date-index.js';
import { Ledger } from '../../src/pipeline/ledger.js';
import { UpsertState } from '../../src/pipeline/upsert-state.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';
import { ledgerEntries } from './ledger-entries.js';

const { invoiceId, invoice, customerId, customer } = ledgerEntries;
const CONNECTION = 'zoho-in';

describe('an upsert job over a ledger entry an earlier release wrote as plain JSON', () => {
  const prefix = testPrefix('upsert-state');
  const keys = stateKeys(prefix);
  let redis: Redis;
  let upserts: UpsertState;
  let ledger: Ledger;
  beforeAll(async () => {
    redis = connect();
    upserts = new UpsertState(redis, keys);
    ledger = new Ledger(redis, keys);
    await redis.hset(keys.ledger(CONNECTION, 'invoices'), invoiceId, JSON.stringify(invoice));
    await redis.hset(keys.ledger(CONNECTION, 'customers'), customerId, JSON.stringify(customer));
  });
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given the plain entries, when a job begins, then it reads them as they were written (so an unchanged hash is skipped)', async () => {
    for (const [entity, erpId, entry] of [
      ['invoices', invoiceId, invoice],
      ['customers', customerId, customer],
    ] as const) {
      const begun = await upserts.begin(CONNECTION, entity, erpId, undefined);
      expect(begun.current).toEqual(entry);
      expect(begun.current?.hash).toBe(entry.hash);
      await begun.lock!.release();
    }
  });

  it('when a job commits a newer version, then the entry is stored in the compact form, reads back as committed and is indexed by its invoice date', async () => {
    const newer = {
      ...invoice,
      version: '2025-03-01T00:00:00.000Z',
      hash: ledgerEntries.customer.hash,
      writtenAt: 1_795_600_000_000,
    };
    newer.fields = { ...invoice.fields, invoiceDate: '2025-02-20', invoicePaidAmount: '203072.6' };
    const begun = await upserts.begin(CONNECTION, 'invoices', invoiceId, undefined, 60_000, 'job-2');
    expect(await upserts.commit(CONNECTION, 'invoices', invoiceId, newer, begun.lock!.owner, 'job-2')).toBe(true);

    const raw = (await redis.hget(keys.ledger(CONNECTION, 'invoices'), invoiceId))!;
    expect(JSON.parse(raw)).toHaveProperty('w');
    expect(raw.length).toBeLessThan(635);
    expect(await ledger.get(CONNECTION, 'invoices', invoiceId)).toEqual(newer);
    const again = await upserts.begin(CONNECTION, 'invoices', invoiceId, undefined, 60_000, 'job-3');
    expect(again.current).toEqual(newer);
    await again.lock!.release();
    const day = dayOf('2025-02-20');
    expect(await new LedgerDateIndex(redis, keys).count(CONNECTION, 'invoices', day, day)).toBe(1);
  });
});

describe('a job of several records: one BEGIN, one SETTLE', () => {
  const prefix = testPrefix('upsert-state-many');
  const keys = stateKeys(prefix);
  const C = 'zoho-in';
  const field = (erpId: string) => `invoices|${erpId}`;
  let redis: Redis;
  let upserts: UpsertState;
  let ledger: Ledger;
  beforeAll(() => {
    redis = connect();
    upserts = new UpsertState(redis, keys);
    ledger = new Ledger(redis, keys);
  });
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given four records, one locked by another job, when a job begins them, then it holds the other three and reads their entries and buyers', async () => {
    await redis.hset(keys.ledger(C, 'invoices'), 'b', JSON.stringify(invoice));
    await redis.sadd(keys.customersEnsured(C), 'buyer-1');
    await redis.set(keys.recordLock(C, 'invoices', 'd'), 'job-other', 'PX', 60_000);
    const begun = await upserts.beginMany(
      C,
      'invoices',
      [
        { erpId: 'a', buyerId: 'buyer-1' },
        { erpId: 'b' },
        { erpId: 'c', buyerId: 'buyer-2' },
        { erpId: 'd', buyerId: 'buyer-1' },
      ],
      60_000,
      'job-1',
    );
    expect(begun).toEqual([
      { locked: true, current: undefined, customerEnsured: true },
      { locked: true, current: invoice, customerEnsured: false },
      { locked: true, current: undefined, customerEnsured: false },
      { locked: false, current: undefined, customerEnsured: false },
    ]);
    for (const id of ['a', 'b', 'c']) expect(await redis.get(keys.recordLock(C, 'invoices', id))).toBe('job-1');
    expect(await redis.get(keys.recordLock(C, 'invoices', 'd'))).toBe('job-other');
  });

  it('when it settles them (written, unchanged, released) and a fourth it never held as stale, then each outcome does its part and only its own locks are released', async () => {
    const v = '2025-03-01T00:00:00.000Z';
    const written = { ...invoice, version: v, writtenAt: 1_795_600_000_000, jobId: 'job-1' };
    for (const id of ['a', 'b', 'c', 'd']) await redis.hset(keys.inFlight(C), field(id), `job-1|1|{}`);
    for (const id of ['a', 'b', 'c'])
      await redis.hset(keys.quarantine(C), field(id), JSON.stringify({ version: '2025-01-01T00:00:00.000Z' }));
    const result = await upserts.settleMany(
      C,
      'invoices',
      [
        { erpId: 'a', settlement: { outcome: 'written', entry: written } },
        { erpId: 'b', settlement: { outcome: 'unchanged', version: invoice.version } },
        { erpId: 'c', settlement: { outcome: 'released' } },
        { erpId: 'd', settlement: { outcome: 'stale' } },
      ],
      'job-1',
      'job-1',
    );
    expect(result).toEqual([true, false, false, false]);
    expect(await ledger.get(C, 'invoices', 'a')).toEqual(written);
    expect(await ledger.get(C, 'invoices', 'b')).toEqual(invoice);
    expect(await ledger.get(C, 'invoices', 'c')).toBeUndefined();
    // Written and unchanged clear the quarantine entry; released leaves it (the record had no outcome here).
    expect(await redis.hkeys(keys.quarantine(C))).toEqual([field('c')]);
    // Written, unchanged and stale settle the in-flight entry; released leaves it for the job that carries it next.
    expect(await redis.hkeys(keys.inFlight(C))).toEqual([field('c')]);
    for (const id of ['a', 'b', 'c']) expect(await redis.get(keys.recordLock(C, 'invoices', id))).toBeNull();
    expect(await redis.get(keys.recordLock(C, 'invoices', 'd'))).toBe('job-other');
  });

  it('given a written entry older than the ledger’s, when it is settled, then the ledger keeps the newer one and says so', async () => {
    await upserts.beginMany(C, 'invoices', [{ erpId: 'a' }], 60_000, 'job-2');
    const older = { ...invoice, version: '2025-02-01T00:00:00.000Z', jobId: 'job-2' };
    expect(
      await upserts.settleMany(
        C,
        'invoices',
        [{ erpId: 'a', settlement: { outcome: 'written', entry: older } }],
        'job-2',
        'job-2',
      ),
    ).toEqual([false]);
    expect((await ledger.get(C, 'invoices', 'a'))!.version).toBe('2025-03-01T00:00:00.000Z');
  });

  it('given a record held for review before write, when it is settled, then the ledger is untouched, an older quarantine entry cleared, the in-flight entry settled and the lock released', async () => {
    const v = '2025-04-01T00:00:00.000Z';
    await upserts.beginMany(C, 'invoices', [{ erpId: 'h' }, { erpId: 'n' }], 60_000, 'job-3');
    for (const id of ['h', 'n']) await redis.hset(keys.inFlight(C), field(id), `job-3|1|{}`);
    await redis.hset(keys.quarantine(C), field('h'), JSON.stringify({ version: '2025-01-01T00:00:00.000Z' }));
    await redis.hset(keys.quarantine(C), field('n'), JSON.stringify({ version: '2025-05-01T00:00:00.000Z' }));
    const held = (rule: string) => ({ outcome: 'held' as const, version: v, rule });
    expect(
      await upserts.settleMany(
        C,
        'invoices',
        [
          { erpId: 'h', settlement: held('all') },
          { erpId: 'n', settlement: held('all') },
        ],
        'job-3',
        'job-3',
      ),
    ).toEqual([false, false]);
    expect(await ledger.get(C, 'invoices', 'h')).toBeUndefined();
    // A newer quarantined version stays: it is that version's failure.
    expect(await redis.hkeys(keys.quarantine(C))).toEqual([field('c'), field('n')]);
    expect(await redis.hexists(keys.inFlight(C), field('h'))).toBe(0);
    for (const id of ['h', 'n']) expect(await redis.get(keys.recordLock(C, 'invoices', id))).toBeNull();
  });

  it('when a long job extends its locks, then those it still holds get the new TTL, and one released or held by another job is left as it is', async () => {
    await upserts.beginMany(C, 'invoices', [{ erpId: 'e' }, { erpId: 'f' }], 1_000, 'job-3');
    await upserts.settleMany(C, 'invoices', [{ erpId: 'f', settlement: { outcome: 'released' } }], 'job-3', 'job-3');
    expect(await upserts.extendLocks(C, 'invoices', ['e', 'f', 'd'], 60_000, 'job-3')).toBe(1);
    expect(await redis.pttl(keys.recordLock(C, 'invoices', 'e'))).toBeGreaterThan(50_000);
    expect(await redis.exists(keys.recordLock(C, 'invoices', 'f'))).toBe(0);
    expect(await redis.get(keys.recordLock(C, 'invoices', 'd'))).toBe('job-other');
  });
});
