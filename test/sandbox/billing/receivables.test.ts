import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AttachmentList,
  CustomerRecord,
  envelopeOf,
  paginatedOf,
  UsageDriverRecord,
} from '../../../src/billing/schemas/index.js';
import { ACME_ATTACH_KEY, type Api, invoice, startApi } from './helpers.js';

describe('billing emulator: customers, attachments, usage drivers', () => {
  let api: Api;
  beforeAll(async () => {
    api = await startApi();
  });
  beforeEach(async () => {
    await api.admin('POST', '/reset');
  });
  afterAll(() => api.emu.close());

  const search = async (query: Record<string, any> = {}) =>
    (await api.get('/external/customer/search', { query })).body.data;
  const buyers = async (query: Record<string, any> = {}) => (await search(query)).docs.map((c: any) => c.buyerId);

  describe('customers (A15–A17)', () => {
    it('given a created customer, when it is created again with the same buyerId, then 409 CONFLICT', async () => {
      expect((await api.post('/external/customer', { buyerId: 'B-1', name: 'Acme Traders' })).body).toEqual({});
      const again = await api.post('/external/customer', { buyerId: 'B-1' });
      expect(again.status).toBe(409);
      expect(again.body.message).toContain('buyerId');
    });

    it('given customers, when searched by BUYER_ID, GSTIN, PAN and CUSTOMER_NAME, then the matching ones come back', async () => {
      await api.post('/external/customer', {
        buyerId: 'B-1',
        name: 'Acme Traders',
        taxIdentifiers: [{ type: 'GSTIN', value: '29AAAAA0000A1Z5' }],
      });
      await api.post('/external/customer', {
        buyerId: 'B-2',
        name: 'Globex Retail',
        taxIdentifiers: [{ type: 'PAN', value: 'ABCDE1234F' }],
      });
      expect(await buyers({ searchType: 'BUYER_ID', searchText: 'B-2' })).toEqual(['B-2']);
      expect(await buyers({ searchType: 'GSTIN', searchText: '29aaaaa0000a1z5' })).toEqual(['B-1']);
      expect(await buyers({ searchType: 'PAN', searchText: 'ABCDE1234F' })).toEqual(['B-2']);
      expect(await buyers({ searchType: 'CUSTOMER_NAME', searchText: 'retail' })).toEqual(['B-2']);
      expect((await api.get('/external/customer/search', { query: { searchType: 'PAN' } })).status).toBe(400);
    });

    it('given a customer updated at 15:00, when searched with updatedAtEnd that day, then it is outside (raw <= 00:00:00); the next day includes it', async () => {
      await api.setClock('2025-03-10T15:00:00Z');
      await api.post('/external/customer', { buyerId: 'B-1' });
      expect(await buyers({ updatedAtStart: '2025-03-10', updatedAtEnd: '2025-03-10' })).toEqual([]);
      expect(await buyers({ updatedAtStart: '2025-03-10', updatedAtEnd: '2025-03-11' })).toEqual(['B-1']);
      expect(await buyers({ createdAtStart: '2025-03-10', createdAtEnd: '2025-03-10' })).toEqual(['B-1']);
      expect(await buyers({ createdAtEnd: '2025-03-09' })).toEqual([]);
    });

    it('given invoices of a customer, when searched, then totals and counts come from them (voided excluded) in decimal', async () => {
      await api.setClock('2025-04-15T00:00:00Z');
      await api.post('/external/customer', { buyerId: 'B-1', name: 'Acme', currency: 'INR', tags: { segment: 'smb' } });
      await api.upsert(
        invoice({
          invoiceId: 'i1',
          invoiceTotal: 0.1,
          invoicePaidAmount: 0,
          customerDetails: { buyerId: 'B-1' },
          invoiceDueDate: { date: '2025-04-01' },
        }),
      );
      await api.upsert(
        invoice({ invoiceId: 'i2', invoiceTotal: 0.2, invoicePaidAmount: 0.2, customerDetails: { buyerId: 'B-1' } }),
      );
      await api.upsert(invoice({ invoiceId: 'i3', invoiceTotal: 50, customerDetails: { buyerId: 'B-1' } }));
      await api.admin('POST', '/invoices/i3/void');
      const page = await search({ searchType: 'BUYER_ID', searchText: 'B-1' });
      expect(
        envelopeOf(paginatedOf(CustomerRecord)).safeParse({ error: null, message: 'OK', data: page }).success,
      ).toBe(true);
      expect(page.docs[0]).toMatchObject({
        id: 'cus_1',
        companyId: 'acme',
        totalInvoiceAmount: 0.3,
        totalPaidAmount: 0.2,
        totalOutstandingAmount: 0.1,
        overdueAmount: 0.1,
        invoiceCount: 2,
        overdueCount: 1,
      });
      expect(await buyers({ invoiceStatuses: 'OVERDUE' })).toEqual(['B-1']);
      expect(await buyers({ includeTags: 'segment:smb', currencies: 'INR' })).toEqual(['B-1']);
      expect(await buyers({ excludeTagKeys: 'segment' })).toEqual([]);
    });

    it('given owners and contacts, when searched by owner and contact roles, then include and exclude filters apply', async () => {
      const person = (id: string, role: string) => ({
        id,
        name: id,
        primaryPhone: '1',
        primaryEmail: `${id}@x.test`,
        role,
      });
      await api.post('/external/customer', {
        buyerId: 'B-1',
        ownersData: [person('o1', 'AM')],
        contactsData: [person('c1', 'BILLING')],
      });
      await api.post('/external/customer', { buyerId: 'B-2', ownersData: [person('o2', 'CSM')] });
      expect(await buyers({ ownerId: 'o2' })).toEqual(['B-2']);
      expect(await buyers({ ownerRole: 'AM' })).toEqual(['B-1']);
      expect(await buyers({ excludedOwnerRole: 'AM' })).toEqual(['B-2']);
      expect(await buyers({ contactRole: 'BILLING' })).toEqual(['B-1']);
      expect(await buyers({ excludedContactRole: 'BILLING' })).toEqual(['B-2']);
    });
  });

  describe('attachments (A21, A22)', () => {
    it('given an invoice, when a document is attached, then the list names it by the URL path and purpose; listing filters by purpose and day', async () => {
      await api.setClock('2025-06-01T10:00:00Z');
      await api.upsert(invoice({ invoiceId: 'att-1', invoiceNumber: 'A-1' }));
      const up = await api.post(
        '/invoice/attachment/upload',
        { invoiceNumber: 'A-1', attachmentUrl: 'https://files.example/docs/po%20123.pdf' },
        { attachmentKey: ACME_ATTACH_KEY },
      );
      expect(up.status).toBe(200);
      expect(envelopeOf(AttachmentList).safeParse(up.body).success).toBe(true);
      expect(up.body.data).toMatchObject({
        invoiceId: 'att-1',
        invoiceNumber: 'A-1',
        buyerId: 'BUYER-1',
        customerName: 'Buyer One',
      });
      expect(up.body.data.attachments[0]).toMatchObject({
        filename: 'po 123.pdf',
        purpose: 'GENERAL',
        createdAt: '2025-06-01 10:00:00',
      });
      await api.setClock('2025-06-03T10:00:00Z');
      await api.post(
        '/invoice/attachment/upload',
        { invoiceNumber: 'A-1', attachmentUrl: 'https://files.example/proof.png', attachmentPurpose: 'PAYMENT_PROOF' },
        { attachmentKey: ACME_ATTACH_KEY },
      );

      const list = (query: Record<string, string>) =>
        api.get('/invoice/attachments', { attachmentKey: ACME_ATTACH_KEY, query: { invoiceNumber: 'A-1', ...query } });
      expect((await list({})).body.data.attachments).toHaveLength(2);
      expect(
        (await list({ attachmentPurpose: 'PAYMENT_PROOF' })).body.data.attachments.map((a: any) => a.filename),
      ).toEqual(['proof.png']);
      expect((await list({ uploadedFrom: '2025-06-02' })).body.data.attachments).toHaveLength(1);
      expect((await list({ uploadedTo: '2025-06-01' })).body.data.attachments).toHaveLength(1);
      expect((await api.list({ hasAttachment: true, attachmentPurpose: 'PAYMENT_PROOF' })).body.data.totalDocs).toBe(1);
      expect((await api.list({ hasAttachment: false })).body.data.totalDocs).toBe(0);

      const masked = await api.get('/invoice/attachments', {
        attachmentKey: ACME_ATTACH_KEY,
        query: { invoiceNumber: 'A-1' },
        headers: { 'X-Fields-Mask': 'invoiceNumber' },
      });
      expect(masked.body.data).toEqual({ invoiceNumber: 'A-1' });
    });

    it('given an unknown invoice or credit note number, when attaching, then 404 names the field', async () => {
      const inv = await api.post(
        '/invoice/attachment/upload',
        { invoiceNumber: 'nope', attachmentUrl: 'https://x.test/a.pdf' },
        { attachmentKey: ACME_ATTACH_KEY },
      );
      expect(inv.status).toBe(404);
      expect(inv.body.message).toContain('invoiceNumber');
      const cn = await api.post('/creditNote/attachment/upload', {
        creditNoteNumber: 'nope',
        attachmentUrl: 'https://x.test/a.pdf',
      });
      expect(cn.status).toBe(404);
      expect(cn.body.message).toContain('creditNoteNumber');
    });

    it('given a credit note, when a document is attached to it, then data.id is returned', async () => {
      await api.post('/external/creditNotes/upsert', {
        creditNote: { creditNoteId: 'c1', creditNoteNumber: 'CN-1', creditNoteSubtotal: 5 },
      });
      const r = await api.post('/creditNote/attachment/upload', {
        creditNoteNumber: 'CN-1',
        attachmentUrl: 'https://x.test/cn.pdf',
        attachmentPurpose: 'CREDITNOTE_FOR_BUYER',
      });
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual({ id: expect.stringMatching(/^att_\d+$/) });
    });
  });

  describe('usage drivers (A23)', () => {
    it('given drivers, when one is created twice or filtered, then 409 for the duplicate name and case-insensitive substring filters', async () => {
      const created = await api.post('/billing/usageDriver', {
        name: 'API calls',
        description: 'Requests to the API',
        unit: 'count',
        productId: 'p1',
      });
      expect(created.body.data).toEqual({ id: 'ud_1' });
      await api.post('/billing/usageDriver', { name: 'Storage', description: 'Stored data', unit: 'GB' });
      expect((await api.post('/billing/usageDriver', { name: 'Storage', description: 'x', unit: 'y' })).status).toBe(
        409,
      );
      expect((await api.post('/billing/usageDriver', { name: 'x', unit: 'y' })).body.message).toContain(
        'description: ',
      );
      const page = (await api.get('/billing/usageDriver/filter', { query: { name: 'api' } })).body.data;
      expect(page.docs.map((d: any) => d.name)).toEqual(['API calls']);
      expect(UsageDriverRecord.safeParse(page.docs[0]).success).toBe(true);
      expect(
        (await api.get('/billing/usageDriver/filter', { query: { unit: 'GB', pageSize: 1 } })).body.data,
      ).toMatchObject({ totalDocs: 1, totalPages: 1 });
    });
  });
});
