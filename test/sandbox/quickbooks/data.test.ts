import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningQuickBooksEmulator, startQuickBooksEmulator } from '../../../sandbox/quickbooks/index.js';
import { admin, qboGet, qboQuery } from '../../connectors/quickbooks/http.js';

type Json = Record<string, any>;

describe('QBO sandbox generated company', () => {
  let emu: RunningQuickBooksEmulator;
  let invoices: Json[];
  beforeAll(async () => {
    emu = await startQuickBooksEmulator({
      now: '2025-03-01T00:00:00Z',
      frozen: true,
      records: 150,
      customers: 20,
      creditMemos: 12,
    });
    invoices = (await qboQuery(emu, 'SELECT * FROM Invoice MAXRESULTS 1000')).body.QueryResponse.Invoice;
  });
  afterAll(() => emu.close());

  it('given the generated invoices, then they carry classes, departments, a customer message and custom fields, the enhanced ones only when the read asks include=enhancedAllCustomFields (QBO shows the legacy string fields 1–3 otherwise)', async () => {
    const ids = (rows: Json[]) => rows.flatMap((i) => (i.CustomField ?? []).map((f: Json) => String(f.DefinitionId)));
    expect(invoices.some((i) => i.ClassRef?.name)).toBe(true);
    expect(invoices.some((i) => i.DepartmentRef?.name)).toBe(true);
    expect(invoices.some((i) => i.CustomerMemo?.value)).toBe(true);
    expect(new Set(ids(invoices))).toEqual(new Set(['1', '2']));
    const all = (
      await qboGet(emu, 'query', { query: 'SELECT * FROM Invoice MAXRESULTS 1000', include: 'enhancedAllCustomFields' })
    ).body.QueryResponse.Invoice as Json[];
    expect(new Set(ids(all))).toEqual(new Set(['1', '2', '1000000001', '1000000002', '1000000003']));
    const typed = all.flatMap((i) => (i.CustomField ?? []) as Json[]);
    expect(typed.find((f) => f.Type === 'NumberType')?.NumberValue).toEqual(expect.any(Number));
    expect(typed.find((f) => f.Type === 'DateType')?.DateValue).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const one = all.find((i) => ids([i]).includes('1000000001'))!;
    const read = await qboGet(emu, `invoice/${one.Id}`, {});
    expect(ids([read.body.Invoice])).not.toContain('1000000001');
    const readAll = await qboGet(emu, `invoice/${one.Id}`, { include: 'enhancedAllCustomFields' });
    expect(ids([readAll.body.Invoice])).toContain('1000000001');
  });

  it('given the default generator, then it has every case the connector must handle', async () => {
    const taxLines = (i: Json) => (i.TxnTaxDetail.TaxLine ?? []) as Json[];
    expect(invoices.some((i) => taxLines(i).length === 2 && i.CurrencyRef.value === 'INR')).toBe(true); // CGST + SGST
    expect(invoices.some((i) => taxLines(i).length === 1 && taxLines(i)[0]!.TaxLineDetail.TaxPercent > 0)).toBe(true); // IGST
    const foreign = invoices.filter((i) => i.CurrencyRef.value !== 'INR');
    expect(new Set(foreign.map((i) => i.CurrencyRef.value))).toEqual(new Set(['USD', 'EUR']));
    expect(foreign.every((i) => i.ExchangeRate > 1 && typeof i.HomeTotalAmt === 'number')).toBe(true);
    expect(invoices.some((i) => i.Balance > 0 && i.Balance < i.TotalAmt)).toBe(true);
    expect(invoices.some((i) => i.Line.some((l: Json) => l.DetailType === 'DiscountLineDetail'))).toBe(true);
    expect(invoices.some((i) => i.TotalAmt === 0 && i.PrivateNote === 'Voided')).toBe(true);
    expect(invoices.some((i) => i.LinkedTxn.some((l: Json) => l.TxnType === 'CreditMemo'))).toBe(true);
    expect(emu.store.deleted.length).toBeGreaterThan(0);
    const memos = (await qboQuery(emu, 'SELECT * FROM CreditMemo')).body.QueryResponse.CreditMemo as Json[];
    expect(memos.every((m) => m.InvoiceRef && m.LinkedTxn[0].TxnType === 'Invoice')).toBe(true);
    const all = (await qboQuery(emu, 'SELECT * FROM Customer WHERE Active IN (true, false)')).body.QueryResponse
      .Customer as Json[];
    const active = (await qboQuery(emu, 'SELECT * FROM Customer')).body.QueryResponse.Customer as Json[];
    expect(all.length).toBeGreaterThan(active.length);
    expect(
      all.some(
        (c) => /^\d{2}[A-Z]{5}\d{4}[A-Z]1Z[0-9A-Z]$/.test(c.GSTIN ?? '') && c.BusinessNumber === c.GSTIN.slice(2, 12),
      ),
    ).toBe(true);
  });

  it('given amounts, then they are exact to the paisa: lines, tax and total add up in integer paise', () => {
    const paise = (n: number) => Math.round(n * 100);
    for (const i of invoices) {
      const items = (i.Line as Json[]).filter((l) => l.DetailType === 'SalesItemLineDetail');
      const discount = (i.Line as Json[])
        .filter((l) => l.DetailType === 'DiscountLineDetail')
        .reduce((a, l) => a + paise(l.Amount), 0);
      const sub = items.reduce((a, l) => a + paise(l.Amount), 0);
      const tax = ((i.TxnTaxDetail.TaxLine ?? []) as Json[]).reduce((a, t) => a + paise(t.Amount), 0);
      expect(sub - discount + tax).toBe(paise(i.TotalAmt));
      expect(tax).toBe(paise(i.TxnTaxDetail.TotalTax));
      for (const l of items)
        expect(paise(l.SalesItemLineDetail.Qty * l.SalesItemLineDetail.UnitPrice)).toBe(paise(l.Amount));
    }
  });

  it('given the same seed and clock, then the same company', async () => {
    const twin = await startQuickBooksEmulator({
      now: '2025-03-01T00:00:00Z',
      frozen: true,
      records: 150,
      customers: 20,
      creditMemos: 12,
    });
    try {
      expect((await qboQuery(twin, 'SELECT * FROM Invoice MAXRESULTS 1000')).body.QueryResponse.Invoice).toEqual(
        invoices,
      );
    } finally {
      await twin.close();
    }
  });

  it('given admin mutations under a frozen clock, then void, payment, credit memo and same-second edits show as QBO shows them', async () => {
    const open = invoices.find((i) => i.Balance === i.TotalAmt && i.TotalAmt > 0 && i.CurrencyRef.value === 'INR')!;
    const paid = await admin(emu, `invoices/${open.Id}/payment`, { amount: 100 });
    expect(paid.body.Balance).toBeCloseTo(open.TotalAmt - 100, 2);
    expect(paid.body.SyncToken).toBe(String(Number(open.SyncToken) + 1));
    const memo = await admin(emu, 'credit-memos', { invoiceId: open.Id, amount: 50 });
    expect(memo.body).toMatchObject({
      InvoiceRef: { value: open.Id },
      LinkedTxn: [{ TxnId: open.Id, TxnType: 'Invoice' }],
      RemainingCredit: 0,
    });
    const voided = await admin(emu, `invoices/${open.Id}/void`, {});
    expect(voided.body).toMatchObject({ TotalAmt: 0, Balance: 0, PrivateNote: 'Voided' });
    expect(voided.body.Line[0].SalesItemLineDetail.Qty).toBe(0);
    const ids = invoices.slice(0, 5).map((i) => i.Id as string);
    const touched = await admin(emu, 'touch', { entity: 'Invoice', ids });
    expect(touched.body).toEqual({ touched: 5, at: '2025-03-01T00:00:00.000Z' });
    const same = (await qboQuery(emu, `SELECT * FROM Invoice WHERE Id IN (${ids.map((id) => `'${id}'`).join(', ')})`))
      .body.QueryResponse.Invoice as Json[];
    expect(new Set(same.map((i) => i.MetaData.LastUpdatedTime))).toEqual(new Set(['2025-03-01T05:30:00+05:30']));
    expect((await admin(emu, 'invoices/999999/void', {})).status).toBe(404);
  });

  it('given POST /__admin/reset with another seed, then a different company of the asked size, and the same seed again gives the first one back', async () => {
    const other = await startQuickBooksEmulator({ now: '2025-03-01T00:00:00Z', frozen: true, records: 10 });
    try {
      const first = (await qboQuery(other, 'SELECT * FROM Invoice')).body.QueryResponse.Invoice;
      const reset = await admin(other, 'reset', { seed: 7, records: 25, customers: 5, creditMemos: 2 });
      expect(reset.body).toMatchObject({ ok: true, customers: 5, creditMemos: 2 });
      expect(reset.body.invoices).toBeLessThanOrEqual(25);
      await admin(other, 'reset', { seed: 42, records: 10, customers: 12, creditMemos: 8 });
      expect((await qboQuery(other, 'SELECT * FROM Invoice')).body.QueryResponse.Invoice).toEqual(first);
    } finally {
      await other.close();
    }
  });
});
