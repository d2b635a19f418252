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
    const newer = { ...invoice, version: '2025-03-01T00:00:00.000Z', hash: ledgerEntries.customer.hash, writtenAt: 1_795_600_000_000 };
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
