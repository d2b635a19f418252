import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updatedBetween } from '../../src/billing/dates.js';
import { invoice, startBilling } from '../support/billing.js';

describe('invoice listing semantics, through the client', () => {
  let ctx: Awaited<ReturnType<typeof startBilling>>;
  beforeAll(async () => {
    ctx = await startBilling();
  });
  afterAll(() => ctx.emulator.close());

  it('given an invoice updated at 23:59:59 on the end day, then UPDATED_AT includes it that day and a window ending the day before excludes it', async () => {
    await ctx.setClock('2026-03-10T23:59:59Z');
    await ctx.acme.upsertInvoice(invoice(100));
    await ctx.setClock('2026-03-11T00:00:00Z');
    await ctx.acme.upsertInvoice(invoice(101));
    await ctx.setClock(null);

    const day10 = await ctx.acme.listInvoices({
      ...updatedBetween('2026-03-10', '2026-03-10'),
      invoiceIds: ['conn1-inv-100', 'conn1-inv-101'],
    });
    expect(day10.docs.map((d) => d.invoiceId)).toEqual(['conn1-inv-100']);
    const day11 = await ctx.acme.listInvoices({
      ...updatedBetween('2026-03-11', '2026-03-11'),
      invoiceIds: ['conn1-inv-100', 'conn1-inv-101'],
    });
    expect(day11.docs.map((d) => d.invoiceId)).toEqual(['conn1-inv-101']);
    const before = await ctx.acme.listInvoices({
      ...updatedBetween('2026-03-09', '2026-03-09'),
      invoiceIds: ['conn1-inv-100', 'conn1-inv-101'],
    });
    expect(before.totalDocs).toBe(0);
    expect(day10.docs[0]?.updatedAt).toBe('2026-03-10 23:59:59');
  });

  it('given invoice dates, then INVOICE_DATE compares the column directly (inclusive both ends)', async () => {
    await ctx.acme.upsertInvoice(invoice(110, { invoiceDate: { date: '2026-04-01' } }));
    await ctx.acme.upsertInvoice(invoice(111, { invoiceDate: { date: '2026-04-30' } }));
    await ctx.acme.upsertInvoice(invoice(112, { invoiceDate: { date: '2026-05-01' } }));
    const april = await ctx.acme.listInvoices({
      dateType: 'INVOICE_DATE',
      startDate: '2026-04-01',
      endDate: '2026-04-30',
    });
    expect(april.docs.map((d) => d.invoiceId).sort()).toEqual(['conn1-inv-110', 'conn1-inv-111']);
  });

  it('given draft-less data with a voided and a deleted invoice, then the three lifecycle rules hold', async () => {
    await ctx.acme.upsertInvoice(invoice(120));
    await ctx.acme.upsertInvoice(invoice(121));
    await ctx.acme.upsertInvoice(invoice(122));
    await ctx.admin('/invoices/conn1-inv-121/void');
    await ctx.admin('/invoices/conn1-inv-122/delete');
    const ids = ['conn1-inv-120', 'conn1-inv-121', 'conn1-inv-122'];

    const byDefault = await ctx.acme.listInvoices({ invoiceIds: ids });
    expect(byDefault.docs.map((d) => [d.invoiceId, d.lifecycleStatus])).toEqual([
      ['conn1-inv-120', 'FINALIZED'],
      ['conn1-inv-121', 'VOIDED'],
    ]);
    const finalized = await ctx.acme.listInvoices({ invoiceIds: ids, lifecycleStatuses: ['FINALIZED'] });
    expect(finalized.docs.map((d) => d.invoiceId)).toEqual(['conn1-inv-120']);
    const deleted = await ctx.acme.listInvoices({ invoiceIds: ids, lifecycleStatuses: ['DELETED'] });
    expect(deleted.totalDocs).toBe(0);
    const voidedAndFinal = await ctx.acme.listInvoices({
      invoiceIds: ids,
      lifecycleStatuses: ['FINALIZED', 'VOIDED', 'DELETED'],
    });
    expect(voidedAndFinal.totalDocs).toBe(2);
  });

  it('given an invoice deleted in billing, when upserted again, then 409 conflict (not retryable)', async () => {
    await expect(ctx.acme.upsertInvoice(invoice(122))).rejects.toMatchObject({ status: 409, retryable: false });
  });

  it("given two companies, then neither sees the other's invoices or customers", async () => {
    await ctx.globex.upsertInvoice(invoice(1, { invoiceNumber: 'GLOBEX-1' }));
    const acmeSees = await ctx.acme.listInvoices({ invoiceNumber: 'GLOBEX-1' });
    expect(acmeSees.totalDocs).toBe(0);
    const globexAll = await ctx.globex.listInvoices({});
    expect(globexAll.docs.map((d) => d.invoiceNumber)).toEqual(['GLOBEX-1']);
    const globexCustomers = await ctx.globex.searchCustomers({ searchType: 'BUYER_ID', searchText: 'conn1-cust-9' });
    expect(globexCustomers.totalDocs).toBe(0);
  });

  it('given 23 invoices and pageSize 5, then every page has consistent container fields and together they list each invoice once', async () => {
    for (let n = 200; n < 223; n++)
      await ctx.globex.upsertInvoice(invoice(n, { invoiceOriginSource: 'EXTERNAL_SYSTEM_B' }));
    const seen: string[] = [];
    let pages = 0;
    for await (const page of ctx.globex.iterateInvoicePages({ originSource: ['EXTERNAL_SYSTEM_B'], pageSize: 5 })) {
      pages++;
      expect(page).toMatchObject({ totalDocs: 23, totalPages: 5, pageSize: 5, pageNumber: pages });
      expect(page.hasPrev).toBe(pages > 1);
      expect(page.hasNext).toBe(pages < 5);
      expect(page.prevPageNumber).toBe(pages > 1 ? pages - 1 : null);
      expect(page.nextPageNumber).toBe(pages < 5 ? pages + 1 : null);
      expect(page.docs).toHaveLength(pages < 5 ? 5 : 3);
      seen.push(...page.docs.map((d) => d.invoiceId));
    }
    expect(pages).toBe(5);
    expect(new Set(seen).size).toBe(23);
  });

  it('given repeatable originSource, then both sources are matched', async () => {
    const both = await ctx.globex.listInvoices({
      originSource: ['EXTERNAL_SYSTEM_A', 'EXTERNAL_SYSTEM_B'],
      pageSize: 100,
    });
    expect(both.totalDocs).toBe(24);
    const onlyA = await ctx.globex.listInvoices({ originSource: ['EXTERNAL_SYSTEM_A'] });
    expect(onlyA.totalDocs).toBe(1);
  });

  it('given amount filters, then OUTSTANDING with a minimum keeps only unpaid ones', async () => {
    await ctx.acme.upsertInvoice(invoice(130, { invoicePaidAmount: 1180 }));
    await ctx.acme.upsertInvoice(invoice(131, { invoicePaidAmount: 0 }));
    const open = await ctx.acme.listInvoices({
      invoiceIds: ['conn1-inv-130', 'conn1-inv-131'],
      amountType: 'OUTSTANDING',
      nonZeroAmountOnly: true,
    });
    expect(open.docs.map((d) => d.invoiceId)).toEqual(['conn1-inv-131']);
  });

  it('given sort -invoiceDate, then the newest invoice date comes first', async () => {
    const page = await ctx.acme.listInvoices({
      invoiceIds: ['conn1-inv-110', 'conn1-inv-111', 'conn1-inv-112'],
      sort: '-invoiceDate',
    });
    expect(page.docs.map((d) => d.invoiceDate)).toEqual(['2026-05-01', '2026-04-30', '2026-04-01']);
  });
});
