import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningQuickBooksEmulator, startQuickBooksEmulator } from '../../../sandbox/quickbooks/index.js';
import { qboGet } from '../../connectors/quickbooks/http.js';

describe('QBO sandbox change data capture', () => {
  let emu: RunningQuickBooksEmulator;
  beforeAll(async () => {
    emu = await startQuickBooksEmulator({ now: '2025-03-01T00:00:00Z', frozen: true, records: 40 });
  });
  afterAll(() => emu.close());

  it('given changedSince more than 30 days back, then 400 ValidationFault', async () => {
    const r = await qboGet(emu, 'cdc', { entities: 'Invoice', changedSince: '2025-01-15T00:00:00+05:30' });
    expect(r.status).toBe(400);
    expect(r.body.Fault.type).toBe('ValidationFault');
    expect(r.body.Fault.Error[0].Detail).toMatch(/30 days/);
  });

  it('given a deleted invoice, then CDC returns its stub (status Deleted, Id, MetaData only) and the query no longer does', async () => {
    const id = [...emu.store.docs.Invoice.values()].find((d) => d.linked.length === 0)!.id;
    emu.store.deleteDoc('Invoice', id, '2025-02-28T10:00:00Z');
    const r = await qboGet(emu, 'cdc', { entities: 'Invoice,CreditMemo', changedSince: '2025-02-28T00:00:00Z' });
    expect(r.status).toBe(200);
    const blocks = r.body.CDCResponse[0].QueryResponse as Array<Record<string, any>>;
    const invoices = blocks.find((b) => b.Invoice)!.Invoice as Array<Record<string, any>>;
    expect(invoices.find((x) => x.Id === id)).toEqual({
      domain: 'QBO',
      status: 'Deleted',
      Id: id,
      MetaData: { LastUpdatedTime: '2025-02-28T15:30:00+05:30' },
    });
    expect((await qboGet(emu, `invoice/${id}`)).body.Fault.Error[0].code).toBe('610');
  });

  it('given more than 1,000 changes, then 1,000 objects, oldest first, and totalCount says how many there were', async () => {
    const big = await startQuickBooksEmulator({
      now: '2025-03-01T00:00:00Z',
      frozen: true,
      records: 1200,
      spanDays: 20,
      creditMemos: 0,
    });
    try {
      const r = await qboGet(big, 'cdc', { entities: 'Invoice', changedSince: '2025-02-01T00:00:00Z' });
      const block = r.body.CDCResponse[0].QueryResponse[0];
      expect(block.Invoice).toHaveLength(1000);
      expect(block.totalCount).toBeGreaterThan(1000);
      const times = (block.Invoice as Array<{ MetaData: { LastUpdatedTime: string } }>).map((x) =>
        Date.parse(x.MetaData.LastUpdatedTime),
      );
      expect([...times].sort((a, b) => a - b)).toEqual(times);
    } finally {
      await big.close();
    }
  });
});
