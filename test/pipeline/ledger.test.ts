import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateKeys } from '../../src/pipeline/keys.js';
import { Ledger, type LedgerEntry, REPAIR_HASH } from '../../src/pipeline/ledger.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';
import { ledgerEntries } from './ledger-entries.js';

const { invoiceId, invoice, creditNoteId, creditNote, customerId, customer } = ledgerEntries;
const CONNECTION = 'zoho-in';
const kinds = [
  ['invoices', invoiceId, invoice],
  ['credit-notes', creditNoteId, creditNote],
  ['customers', customerId, customer],
] as const;

describe('ledger entries in Redis', () => {
  const prefix = testPrefix('ledger');
  const keys = stateKeys(prefix);
  let redis: Redis;
  let ledger: Ledger;
  beforeAll(() => {
    redis = connect();
    ledger = new Ledger(redis, keys);
  });
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });
  const stored = async (entity: string, erpId: string) =>
    JSON.parse((await redis.hget(keys.ledger(CONNECTION, entity), erpId))!) as Record<string, unknown>;
  /** The entry as written before the compact form: plain JSON, as an earlier release left it in Redis. */
  const writeLegacy = (connection: string, entity: string, erpId: string, entry: LedgerEntry) =>
    redis.hset(keys.ledger(connection, entity), erpId, JSON.stringify(entry));

  describe('given entries an earlier release wrote as plain JSON', () => {
    const connection = 'legacy';
    beforeAll(async () => {
      for (const [entity, erpId, entry] of kinds) await writeLegacy(connection, entity, erpId, entry);
    });

    it.each(kinds)(
      'when the %s entry is read with get, getMany and scan, then each gives back the entry as it was written',
      async (entity, erpId, entry) => {
        expect(await ledger.get(connection, entity, erpId)).toEqual(entry);
        expect(await ledger.getMany(connection, entity, ['absent', erpId])).toEqual([undefined, entry]);
        const scanned: Array<[string, LedgerEntry]> = [];
        for await (const batch of ledger.scan(connection, entity)) scanned.push(...batch);
        expect(scanned).toEqual([[erpId, entry]]);
      },
    );

    it('when a newer version is put over one, then it is stored in the compact form and read back as given; an older one is refused', async () => {
      const newer = { ...invoice, version: '2025-03-01T00:00:00.000Z', hash: ledgerEntries.creditNote.hash };
      expect(
        await ledger.put(connection, 'invoices', invoiceId, { ...invoice, version: '2025-01-01T00:00:00.000Z' }),
      ).toBe(false);
      expect(await ledger.put(connection, 'invoices', invoiceId, newer)).toBe(true);
      expect(await ledger.get(connection, 'invoices', invoiceId)).toEqual(newer);
      const raw = await redis.hget(keys.ledger(connection, 'invoices'), invoiceId);
      expect(JSON.parse(raw!)).toHaveProperty('w');
      expect(raw!.length).toBeLessThan(JSON.stringify(newer).length * 0.65);
    });
  });

  describe('given entries written in the compact form, when a script re-encodes them (cjson), then they read back as written but for what the script changes', () => {
    const put = async (entity: string, erpId: string, entry: LedgerEntry) => {
      await redis.hdel(keys.ledger(CONNECTION, entity), erpId);
      expect(await ledger.put(CONNECTION, entity, erpId, entry)).toBe(true);
      expect(await stored(entity, erpId)).toHaveProperty('w');
    };

    it.each(kinds)(
      'mark-source-deleted, on the %s entry (with and without moving its version)',
      async (entity, erpId, entry) => {
        await put(entity, erpId, entry);
        expect(
          await ledger.markSourceDeleted(CONNECTION, entity, erpId, '2025-01-01T00:00:00.000Z', { bumpVersion: true }),
        ).toBe(true);
        // The delete is older than the entry: the version stays.
        expect(await ledger.get(CONNECTION, entity, erpId)).toEqual({
          ...entry,
          sourceDeletedAt: '2025-01-01T00:00:00.000Z',
        });
        await put(entity, erpId, entry);
        expect(
          await ledger.markSourceDeleted(CONNECTION, entity, erpId, '2026-05-01T00:00:00.000Z', { bumpVersion: true }),
        ).toBe(true);
        expect(await ledger.get(CONNECTION, entity, erpId)).toEqual({
          ...entry,
          version: '2026-05-01T00:00:00.000Z',
          sourceDeletedAt: '2026-05-01T00:00:00.000Z',
        });
        // Marked already: nothing changes.
        expect(await ledger.markSourceDeleted(CONNECTION, entity, erpId, '2026-06-01T00:00:00.000Z')).toBe(false);
        expect(await stored(entity, erpId)).toHaveProperty('w');
      },
    );

    it.each(kinds)('request-repair, on the %s entry', async (entity, erpId, entry) => {
      await put(entity, erpId, entry);
      expect(await ledger.requestRepair(CONNECTION, entity, [erpId, 'absent'])).toBe(1);
      const repaired = await ledger.get(CONNECTION, entity, erpId);
      expect(repaired).toEqual({ ...entry, hash: REPAIR_HASH });
      expect(Ledger.repairRequested(repaired)).toBe(true);
    });

    it.each(kinds)('forget-written, on the %s entry', async (entity, erpId, entry) => {
      await put(entity, erpId, entry);
      expect(await ledger.forgetWritten(CONNECTION, entity)).toBe(1);
      const { fields: _fields, jobId: _jobId, attachmentUrl: _attachmentUrl, ...kept } = entry;
      expect(await ledger.get(CONNECTION, entity, erpId)).toEqual({ ...kept, hash: REPAIR_HASH });
    });

    it('every script in turn, on the invoice entry, and then a late older version is still refused (the stored version is read by the script)', async () => {
      await put('invoices', invoiceId, invoice);
      await ledger.markSourceDeleted(CONNECTION, 'invoices', invoiceId, '2025-02-08T00:00:00.000Z', {
        bumpVersion: true,
      });
      await ledger.requestRepair(CONNECTION, 'invoices', [invoiceId]);
      expect(await ledger.get(CONNECTION, 'invoices', invoiceId)).toEqual({
        ...invoice,
        hash: REPAIR_HASH,
        version: '2025-02-08T00:00:00.000Z',
        sourceDeletedAt: '2025-02-08T00:00:00.000Z',
      });
      expect(await ledger.put(CONNECTION, 'invoices', invoiceId, invoice)).toBe(false);
      await ledger.forgetWritten(CONNECTION, 'invoices');
      const { fields: _fields, jobId: _jobId, attachmentUrl: _attachmentUrl, ...kept } = invoice;
      expect(await ledger.get(CONNECTION, 'invoices', invoiceId)).toEqual({
        ...kept,
        hash: REPAIR_HASH,
        version: '2025-02-08T00:00:00.000Z',
        sourceDeletedAt: '2025-02-08T00:00:00.000Z',
      });
    });
  });
});
