import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AttachmentList,
  ContractFeeComponentRatecardRecord,
  ContractRecord,
  CustomerRecord,
  FeeComponentTagRecord,
  InvoiceRecord,
  RatecardRecord,
  UsageDriverRecord,
} from '../../src/billing/schemas/index.js';
import { invoice, startBilling } from '../support/billing.js';

describe('billing client ⇄ emulator: every endpoint round-trips with schema-valid payloads', () => {
  let ctx: Awaited<ReturnType<typeof startBilling>>;
  beforeAll(async () => {
    ctx = await startBilling();
  });
  afterAll(() => ctx.emulator.close());

  it('1+5: an upserted invoice is listed with computed fields', async () => {
    await ctx.acme.upsertInvoice(invoice(1, { invoicePaidAmount: 180 }));
    const page = await ctx.acme.listInvoices({ invoiceIds: ['conn1-inv-1'] });
    expect(page.totalDocs).toBe(1);
    const rec = InvoiceRecord.parse(page.docs[0]);
    expect(rec).toMatchObject({
      invoiceId: 'conn1-inv-1',
      invoiceNumber: 'INV-00001',
      invoiceTotal: 1180,
      invoicePaidAmount: 180,
      invoiceOutstandingAmount: 1000,
      paymentStatus: 'PARTIALLY_PAID',
      lifecycleStatus: 'FINALIZED',
      invoiceOriginSource: 'EXTERNAL_SYSTEM_A',
      invoiceDate: '2026-01-15',
      buyerId: 'conn1-cust-1',
      erpId: 'erp-1',
      invoiceCurrency: 'INR',
    });
    expect(rec.createdAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('1: a second upsert with the same invoiceId updates the same invoice (no duplicate)', async () => {
    await ctx.acme.upsertInvoice(invoice(1, { invoicePaidAmount: 1180 }));
    const page = await ctx.acme.listInvoices({ invoiceIds: ['conn1-inv-1'] });
    expect(page.totalDocs).toBe(1);
    expect(page.docs[0]).toMatchObject({ invoicePaidAmount: 1180, invoiceOutstandingAmount: 0, paymentStatus: 'PAID' });
  });

  it('1: an invoice upserted without an origin source is listed as OTHER', async () => {
    const { invoiceOriginSource: _omit, ...rest } = invoice(2);
    await ctx.acme.upsertInvoice(rest);
    const page = await ctx.acme.listInvoices({ invoiceIds: ['conn1-inv-2'] });
    expect(page.docs[0]?.invoiceOriginSource).toBe('OTHER');
  });

  it('2: a credit note upserts and its application shows on the invoice', async () => {
    await ctx.acme.upsertCreditNote({
      creditNoteId: 'conn1-cn-1',
      creditNoteNumber: 'CN-00001',
      creditNoteDate: { date: '2026-01-20' },
      creditNoteSubtotal: 100,
      creditNoteTotal: 118,
      creditNoteCurrency: 'INR',
      appliedToInvoices: [{ invoiceId: 'conn1-inv-2', amount: 118 }],
      creditNoteOriginSource: 'EXTERNAL_SYSTEM_A',
      erpId: 'erp-cn-1',
    });
    const page = await ctx.acme.listInvoices({ invoiceIds: ['conn1-inv-2'] });
    expect(page.docs[0]?.creditNoteAdjustedAmount).toBe(118);
  });

  it('3+4: a created customer is found by BUYER_ID, GSTIN and CUSTOMER_NAME', async () => {
    await ctx.acme.createCustomer({
      buyerId: 'conn1-cust-9',
      name: 'Globe Exports LLP',
      taxIdentifiers: [
        { type: 'GSTIN', value: '27AAACG1234K1Z1' },
        { type: 'PAN', value: 'AAACG1234K' },
      ],
      contactsData: [
        { id: 'c1', name: 'Asha', primaryPhone: '+91-22-1234', primaryEmail: 'asha@globe.example', role: 'AP' },
      ],
      tags: { segment: 'enterprise' },
    });
    for (const [searchType, searchText] of [
      ['BUYER_ID', 'conn1-cust-9'],
      ['GSTIN', '27AAACG1234K1Z1'],
      ['PAN', 'AAACG1234K'],
      ['CUSTOMER_NAME', 'globe exp'],
    ] as const) {
      const page = await ctx.acme.searchCustomers({ searchType, searchText });
      expect(
        page.docs.map((c) => c.buyerId),
        `${searchType}`,
      ).toEqual(['conn1-cust-9']);
      CustomerRecord.parse(page.docs[0]);
    }
  });

  it('6+7: an attachment added with a purpose is listed, filtered by purpose', async () => {
    const added = await ctx.acme.addInvoiceAttachment({
      invoiceNumber: 'INV-00001',
      attachmentUrl: 'https://files.example/inv-00001.pdf',
      attachmentPurpose: 'INVOICE_FOR_BUYER',
    });
    AttachmentList.parse(added);
    expect(added.attachments.map((a) => a.filename)).toContain('inv-00001.pdf');
    await ctx.acme.addInvoiceAttachment({
      invoiceNumber: 'INV-00001',
      attachmentUrl: 'https://files.example/po.pdf',
      attachmentPurpose: 'PURCHASE_ORDER',
    });
    const listed = await ctx.acme.listInvoiceAttachments({
      invoiceNumber: 'INV-00001',
      attachmentPurpose: 'INVOICE_FOR_BUYER',
    });
    expect(listed.attachments).toHaveLength(1);
    expect(listed.attachments[0]).toMatchObject({ filename: 'inv-00001.pdf', purpose: 'INVOICE_FOR_BUYER' });
    const hasAttachment = await ctx.acme.listInvoices({ hasAttachment: true, attachmentPurpose: 'PURCHASE_ORDER' });
    expect(hasAttachment.docs.map((d) => d.invoiceNumber)).toEqual(['INV-00001']);
  });

  it('8: a credit-note attachment returns an id', async () => {
    const r = await ctx.acme.addCreditNoteAttachment({
      creditNoteNumber: 'CN-00001',
      attachmentUrl: 'https://files.example/cn.pdf',
      attachmentPurpose: 'CREDITNOTE_FOR_BUYER',
    });
    expect(r.id).toEqual(expect.any(String));
  });

  it('9+10: usage drivers are created with unique names and filtered', async () => {
    const a = await ctx.acme.createUsageDriver({ name: 'api-calls', description: 'API calls made', unit: 'count' });
    const b = await ctx.acme.createUsageDriver({
      name: 'storage-gb',
      description: 'Data stored',
      unit: 'GB',
      productId: 'prod-1',
    });
    expect(a.id).not.toBe(b.id);
    await expect(
      ctx.acme.createUsageDriver({ name: 'api-calls', description: 'again', unit: 'count' }),
    ).rejects.toMatchObject({
      status: 409,
      retryable: false,
    });
    const page = await ctx.acme.filterUsageDrivers({ name: 'API' });
    expect(page.docs.map((d) => UsageDriverRecord.parse(d).name)).toEqual(['api-calls']);
  });

  it('11–16: contracts, fee components, rate cards, tags and associations', async () => {
    const contracts = await ctx.acme.filterContracts({ pageSize: 5 });
    expect(contracts.docs.length).toBeGreaterThan(0);
    const contract = ContractRecord.parse(contracts.docs[0]);
    const all = [];
    for await (const page of ctx.acme.iterateContractPages({ pageSize: 2 })) all.push(...page.docs);
    expect(all).toHaveLength(contracts.totalDocs);

    // Find a fee component through its tags/rate cards: the seed exposes fee components via rate cards.
    const assoc = await ctx.acme.listContractFeeComponentRatecards({});
    for (const a of assoc) ContractFeeComponentRatecardRecord.parse(a);

    const feeComponentId = await findFeeComponentId(ctx, contract.id);
    const tags = await ctx.acme.fetchFeeComponentTags(feeComponentId);
    for (const t of tags) FeeComponentTagRecord.parse(t);
    const rc = await ctx.acme.fetchFeeComponentRatecards(feeComponentId, { contractId: contract.id });
    expect(rc.ratecards.length).toBeGreaterThan(0);
    for (const r of rc.ratecards) RatecardRecord.parse(r);

    const added = await ctx.acme.addFeeComponentToContract({ feeComponentId, contractId: contract.id });
    expect(added.docs[0]?.id).toBe(contract.id);
    const selected = await ctx.acme.selectRatecards(contract.id, {
      feeComponentId,
      ratecardRelations: [{ ratecardId: rc.ratecards[0]!.id }],
    });
    expect(selected.docs[0]?.id).toBe(contract.id);
    const after = await ctx.acme.listContractFeeComponentRatecards({ contractId: contract.id, feeComponentId });
    expect(after.map((a) => a.ratecardId)).toContain(rc.ratecards[0]!.id);
  });

  it('fields mask: only the named fields (and id) come back', async () => {
    const page = await ctx.acme.filterContracts({ pageSize: 1 }, { fieldsMask: ['contractNumber'] });
    expect(Object.keys(page.docs[0]!).sort()).toEqual(['contractNumber', 'id']);
  });
});

/** A fee component of the seed data that is not yet on the contract (GET /__admin/seed). */
async function findFeeComponentId(ctx: Awaited<ReturnType<typeof startBilling>>, contractId: string): Promise<string> {
  const res = await fetch(`${ctx.emulator.url}/__admin/seed?company=acme`);
  const seed = (await res.json()) as {
    feeComponents: Array<{ id: string }>;
    contracts: Array<{ id: string; feeComponents: Array<{ feeComponentId: string }> }>;
  };
  const on = new Set(seed.contracts.find((c) => c.id === contractId)!.feeComponents.map((f) => f.feeComponentId));
  return seed.feeComponents.find((f) => !on.has(f.id))!.id;
}
