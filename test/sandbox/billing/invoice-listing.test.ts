import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { envelopeOf, InvoiceRecord, paginatedOf } from '../../../src/billing/schemas/index.js';
import { type Api, invoice, startApi } from './helpers.js';

const PagedInvoices = envelopeOf(paginatedOf(InvoiceRecord));

describe('billing emulator: invoice upsert and listing semantics', () => {
  let api: Api;
  beforeAll(async () => {
    api = await startApi();
  });
  beforeEach(async () => {
    await api.admin('POST', '/reset');
  });
  afterAll(() => api.emu.close());

  const ids = async (query: Record<string, any> = {}) =>
    (await api.list({ pageSize: 500, ...query })).body.data.docs.map((d: any) => d.invoiceId);
  const one = async (invoiceId: string) => (await api.list({ invoiceIds: [invoiceId] })).body.data.docs[0];

  describe('upsert (A6, A7)', () => {
    it('given a new invoice, when upserted, then the answer is {} and it lists FINALIZED with a service id and createdAt = updatedAt', async () => {
      const inv = invoice();
      const r = await api.upsert(inv);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({});
      const rec = await one(inv.invoiceId);
      expect(rec).toMatchObject({
        id: 'inv_1',
        lifecycleStatus: 'FINALIZED',
        invoiceOriginSource: 'EXTERNAL_SYSTEM_A',
      });
      expect(rec.updatedAt).toBe(rec.createdAt);
    });

    it('given an identical re-upsert later, then updatedAt stays; given a changed one, then updatedAt moves and id/createdAt stay', async () => {
      await api.setClock('2025-04-01T10:00:00Z');
      const inv = invoice();
      await api.upsert(inv);
      const first = await one(inv.invoiceId);
      await api.admin('POST', '/clock', { advanceMs: 3_600_000 });
      await api.upsert({ ...inv, tags: undefined });
      expect((await one(inv.invoiceId)).updatedAt).toBe(first.updatedAt);
      await api.admin('POST', '/clock', { advanceMs: 3_600_000 });
      await api.upsert({ ...inv, invoiceTotal: 120 });
      const changed = await one(inv.invoiceId);
      expect(changed).toMatchObject({ id: first.id, createdAt: first.createdAt, invoiceTotal: 120 });
      expect(changed.updatedAt).toMatch(/^2025-04-01 12:00/);
    });

    it('given the same invoiceId in two companies, when upserted, then they are two invoices', async () => {
      const inv = invoice();
      await api.upsert(inv);
      await api.upsert({ ...inv, invoiceTotal: 5 }, { key: 'sandbox-key-globex' });
      expect((await one(inv.invoiceId)).invoiceTotal).toBe(118);
    });
  });

  describe('lifecycle rules', () => {
    beforeEach(async () => {
      await api.upsert(invoice({ invoiceId: 'fin' }));
      await api.upsert(invoice({ invoiceId: 'void' }));
      await api.upsert(invoice({ invoiceId: 'del' }));
      await api.admin('POST', '/invoices', { invoice: invoice({ invoiceId: 'draft' }), lifecycleStatus: 'DRAFT' });
      await api.admin('POST', '/invoices/void/void');
      await api.admin('POST', '/invoices/del/delete');
    });

    it('given no lifecycle filter, when listed, then DRAFT, FINALIZED and VOIDED come back, never DELETED', async () => {
      expect((await ids()).sort()).toEqual(['draft', 'fin', 'void']);
    });

    it('given lifecycleStatuses=FINALIZED alone, when listed, then only finalized invoices', async () => {
      expect(await ids({ lifecycleStatuses: ['FINALIZED'] })).toEqual(['fin']);
    });

    it('given DELETED in the filter, when listed, then it is accepted but never yields', async () => {
      expect(await ids({ lifecycleStatuses: ['DELETED'] })).toEqual([]);
      expect(await ids({ lifecycleStatuses: ['DELETED', 'VOIDED'] })).toEqual(['void']);
    });
  });

  describe('date types (A14)', () => {
    it('given an invoice updated at 23:59:59 UTC, when listed by UPDATED_AT ending that day, then it is included; starting the next day, excluded', async () => {
      await api.setClock('2025-03-10T23:59:59Z');
      await api.upsert(invoice({ invoiceId: 'late' }));
      await api.setClock(null);
      const window = { dateType: 'UPDATED_AT', startDate: '2025-03-10', endDate: '2025-03-10' };
      expect(await ids(window)).toEqual(['late']);
      expect(await ids({ ...window, startDate: '2025-03-11', endDate: '2025-03-11' })).toEqual([]);
      expect(await ids({ ...window, startDate: '2025-03-09', endDate: '2025-03-09' })).toEqual([]);
      expect(await ids({ dateType: 'CREATED_AT', startDate: '2025-03-01', endDate: '2025-03-10' })).toEqual(['late']);
    });

    it('given an invoice created one day and updated the next, when listed by CREATED_AT and UPDATED_AT, then each uses its own timestamp', async () => {
      await api.setClock('2025-03-10T12:00:00Z');
      const inv = invoice({ invoiceId: 'moved' });
      await api.upsert(inv);
      await api.setClock('2025-03-11T00:00:00Z');
      await api.upsert({ ...inv, invoiceTotal: 1 });
      expect(await ids({ dateType: 'UPDATED_AT', startDate: '2025-03-10', endDate: '2025-03-10' })).toEqual([]);
      expect(await ids({ dateType: 'UPDATED_AT', startDate: '2025-03-11', endDate: '2025-03-11' })).toEqual(['moved']);
      expect(await ids({ dateType: 'CREATED_AT', startDate: '2025-03-10', endDate: '2025-03-10' })).toEqual(['moved']);
    });

    it('given invoice and due dates, when listed by INVOICE_DATE / DUE_DATE, then the date column is compared inclusively', async () => {
      await api.upsert(
        invoice({ invoiceId: 'a', invoiceDate: { date: '2025-01-31' }, invoiceDueDate: { date: '2025-02-28' } }),
      );
      await api.upsert(invoice({ invoiceId: 'b', invoiceDate: { date: '2025-02-01' }, invoiceDueDate: undefined }));
      expect(await ids({ dateType: 'INVOICE_DATE', startDate: '2025-01-01', endDate: '2025-01-31' })).toEqual(['a']);
      expect(await ids({ dateType: 'INVOICE_DATE', startDate: '2025-02-01' })).toEqual(['b']);
      expect(await ids({ dateType: 'DUE_DATE', startDate: '2025-01-01', endDate: '2025-12-31' })).toEqual(['a']);
    });

    it('given startDate without dateType, when listed, then 400 names dateType', async () => {
      const r = await api.list({ startDate: '2025-01-01' });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain('dateType: ');
    });
  });

  describe('filters', () => {
    it('given three origin sources, when originSource is repeated, then invoices of either come back', async () => {
      await api.upsert(invoice({ invoiceId: 'a', invoiceOriginSource: 'EXTERNAL_SYSTEM_A' }));
      await api.upsert(invoice({ invoiceId: 'b', invoiceOriginSource: 'EXTERNAL_SYSTEM_B' }));
      const { invoiceOriginSource: _omit, ...noOrigin } = invoice({ invoiceId: 'c' });
      await api.upsert(noOrigin);
      expect(await ids({ originSource: ['EXTERNAL_SYSTEM_A', 'EXTERNAL_SYSTEM_B'] })).toEqual(['a', 'b']);
      expect(await ids({ originSource: 'OTHER' })).toEqual(['c']);
    });

    it('given amounts and statuses, when filtered by amount type, payment status and invoice status, then the computed values decide', async () => {
      await api.setClock('2025-04-15T00:00:00Z');
      await api.upsert(invoice({ invoiceId: 'paid', invoiceTotal: 100, invoicePaidAmount: 100 }));
      await api.upsert(
        invoice({
          invoiceId: 'part',
          invoiceTotal: 100,
          invoicePaidAmount: 40,
          invoiceDueDate: { date: '2025-04-30' },
        }),
      );
      await api.upsert(invoice({ invoiceId: 'late', invoiceTotal: 100, invoiceDueDate: { date: '2025-04-14' } }));
      expect(await ids({ paymentStatuses: 'PAID' })).toEqual(['paid']);
      expect(await ids({ paymentStatuses: ['PARTIALLY_PAID', 'UNPAID'] })).toEqual(['part', 'late']);
      expect(await ids({ invoiceStatuses: 'OVERDUE' })).toEqual(['late']);
      expect(await ids({ invoiceStatuses: 'OPEN' })).toEqual(['part']);
      expect(await ids({ amountType: 'OUTSTANDING', minAmount: 50 })).toEqual(['part', 'late']);
      expect(await ids({ amountType: 'PAID', nonZeroAmountOnly: true })).toEqual(['paid', 'part']);
      expect(await ids({ amountType: 'OUTSTANDING', maxAmount: 60, minAmount: 60 })).toEqual(['part']);
    });

    it('given tags, buyers, currencies and numbers, when filtered, then each narrows the listing', async () => {
      await api.upsert(
        invoice({
          invoiceId: 'x',
          invoiceNumber: 'N-X',
          tags: { region: 'south', vip: true },
          invoiceCurrency: 'USD',
          exchangeRate: 83.1,
        }),
      );
      await api.upsert(
        invoice({
          invoiceId: 'y',
          invoiceNumber: 'N-Y',
          tags: { region: 'north' },
          customerDetails: { buyerId: 'B-2' },
        }),
      );
      expect(await ids({ tags: 'region:south' })).toEqual(['x']);
      expect(await ids({ tags: ['region:south', 'region:north'] })).toEqual(['x', 'y']);
      expect(await ids({ tags: ['region:south', 'vip:true'] })).toEqual(['x']);
      expect(await ids({ buyerIds: 'B-2' })).toEqual(['y']);
      expect(await ids({ currencies: 'USD' })).toEqual(['x']);
      expect(await ids({ invoiceNumber: 'N-Y' })).toEqual(['y']);
      expect(await ids({ acceptanceStatuses: 'ACCEPTED' })).toEqual([]);
    });
  });

  describe('order and paging (A1, A2, A13)', () => {
    beforeEach(async () => {
      for (const [id, date] of [
        ['d3', '2025-03-03'],
        ['d1', '2025-03-01'],
        ['d2a', '2025-03-02'],
        ['d2b', '2025-03-02'],
        ['d4', '2025-03-04'],
      ] as const) {
        await api.upsert(invoice({ invoiceId: id, invoiceDate: { date } }));
      }
    });

    it('given no sort, when listed, then by invoiceDate ascending with ties in creation order; -invoiceDate reverses the dates', async () => {
      expect(await ids()).toEqual(['d1', 'd2a', 'd2b', 'd3', 'd4']);
      expect(await ids({ sort: '-invoiceDate' })).toEqual(['d4', 'd3', 'd2a', 'd2b', 'd1']);
    });

    it('given pageSize 2, when each page is read, then the container fields agree and the pages cover every invoice once', async () => {
      const pages = [];
      for (let p = 1; p <= 3; p++) pages.push((await api.list({ pageSize: 2, pageNumber: p })).body);
      for (const page of pages) expect(PagedInvoices.safeParse(page).success).toBe(true);
      expect(pages.map((p) => p.data)).toMatchObject([
        {
          totalDocs: 5,
          totalPages: 3,
          pageNumber: 1,
          pageSize: 2,
          hasPrev: false,
          hasNext: true,
          prevPageNumber: null,
          nextPageNumber: 2,
        },
        {
          totalDocs: 5,
          totalPages: 3,
          pageNumber: 2,
          hasPrev: true,
          hasNext: true,
          prevPageNumber: 1,
          nextPageNumber: 3,
        },
        {
          totalDocs: 5,
          totalPages: 3,
          pageNumber: 3,
          hasPrev: true,
          hasNext: false,
          prevPageNumber: 2,
          nextPageNumber: null,
        },
      ]);
      expect(pages.flatMap((p) => p.data.docs.map((d: any) => d.invoiceId))).toEqual(['d1', 'd2a', 'd2b', 'd3', 'd4']);
    });

    it('given a filter that matches nothing, when listed, then totalDocs 0, totalPages 0, no next or previous page', async () => {
      const r = await api.list({ invoiceIds: 'none' });
      expect(r.body).toEqual({
        error: null,
        message: 'OK',
        data: {
          totalDocs: 0,
          docs: [],
          hasNext: false,
          hasPrev: false,
          pageNumber: 1,
          pageSize: 50,
          totalPages: 0,
          prevPageNumber: null,
          nextPageNumber: null,
        },
      });
    });
  });

  describe('the invoice record', () => {
    it('given a rich invoice, when listed, then the record carries computed and copied fields and parses with InvoiceRecord', async () => {
      await api.setClock('2025-05-01T09:30:00Z');
      const inv = invoice({
        invoiceId: 'rich',
        invoiceSubtotal: 0.1,
        invoiceTotal: 0.3,
        invoicePaidAmount: 0.1,
        invoiceAdjustedAmount: 0.1,
        invoiceDueDate: { date: '2025-04-30' },
        invoiceCurrency: 'USD',
        exchangeRate: 83.25,
        erpId: 'erp-9',
        placeOfSupply: 'KA',
        lineItems: [{ lineItemDetails: { name: 'Widget', taxRate: 18 }, subTotal: 0.1, total: 0.3 }],
      });
      await api.upsert(inv);
      const rec = await one('rich');
      expect(InvoiceRecord.safeParse(rec).success).toBe(true);
      expect(rec).toMatchObject({
        invoiceOutstandingAmount: 0.1,
        paymentStatus: 'PARTIALLY_PAID',
        invoiceStatus: 'OVERDUE',
        invoiceDate: '2025-03-01',
        invoiceDueDate: '2025-04-30',
        promiseToPayDate: null,
        buyerId: 'BUYER-1',
        customerName: 'Buyer One',
        buyerGstin: '29ABCDE1234F1Z5',
        createdBy: { userId: 'api', userName: 'API' },
        createdAt: '2025-05-01 09:30:00',
        invoiceCurrency: 'USD',
        exchangeRate: 83.25,
        erpId: 'erp-9',
        placeOfSupply: 'KA',
        writtenOffAmount: 0,
        creditNoteAdjustedAmount: 0,
        invoiceTax: { total: 18, tds: 0 },
      });
      expect(rec.lineItems[0]).toMatchObject({ quantity: 1, lineItemDetails: { name: 'Widget', pricePerItem: 0 } });
    });

    it('given credit notes applied by invoiceId and by invoiceNumber, when listed, then creditNoteAdjustedAmount is their decimal sum and outstanding is unchanged', async () => {
      await api.upsert(invoice({ invoiceId: 'cn-target', invoiceNumber: 'CN-T-1', invoiceTotal: 100 }));
      const note = (id: string, applied: object[]) => ({
        creditNote: {
          creditNoteId: id,
          creditNoteNumber: `NUM-${id}`,
          creditNoteSubtotal: 1,
          creditNoteTotal: 1,
          appliedToInvoices: applied,
        },
      });
      expect(
        (await api.post('/external/creditNotes/upsert', note('c1', [{ invoiceId: 'cn-target', amount: 0.1 }]))).body,
      ).toEqual({});
      await api.post('/external/creditNotes/upsert', note('c2', [{ invoiceNumber: 'CN-T-1', amount: 0.2 }]));
      expect(await one('cn-target')).toMatchObject({
        creditNoteAdjustedAmount: 0.3,
        invoiceOutstandingAmount: 100,
        invoiceAdjustedAmount: 0,
      });
      await api.post('/external/creditNotes/upsert', note('c1', []));
      expect((await one('cn-target')).creditNoteAdjustedAmount).toBe(0.2);
    });

    it('given a credit note applied to an unknown invoice, when upserted, then 400 names creditNote.appliedToInvoices.N and nothing is applied', async () => {
      await api.upsert(invoice({ invoiceId: 'known' }));
      const r = await api.post('/external/creditNotes/upsert', {
        creditNote: {
          creditNoteId: 'c9',
          creditNoteNumber: 'C9',
          creditNoteSubtotal: 1,
          appliedToInvoices: [
            { invoiceId: 'known', amount: 1 },
            { invoiceId: 'ghost', amount: 1 },
          ],
        },
      });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('creditNote.appliedToInvoices.1: unknown invoice (invoiceId ghost)');
      expect((await one('known')).creditNoteAdjustedAmount).toBe(0);
    });
  });
});
