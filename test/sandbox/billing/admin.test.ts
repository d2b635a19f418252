import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InvoiceRecord } from '../../../src/billing/schemas/index.js';
import { type Api, invoice, startApi } from './helpers.js';

describe('billing emulator admin endpoints', () => {
  let api: Api;
  /** How far the test has moved the emulator's wall clock past real time (time passing, without sleeping). */
  let skewMs = 0;
  beforeAll(async () => {
    api = await startApi({ wall: () => Date.now() + skewMs });
  });
  beforeEach(async () => {
    await api.admin('POST', '/reset');
  });
  afterAll(() => api.emu.close());

  const record = async (invoiceId: string) => (await api.admin('GET', `/invoices/${invoiceId}`)).body;
  const listed = async (invoiceId: string) => (await api.list({ invoiceIds: [invoiceId] })).body.data.docs[0];

  describe('reset', () => {
    it('given invoices, customers, usage drivers and a rate-card selection, when reset, then all are gone, setup is re-seeded, ids restart', async () => {
      await api.upsert(invoice());
      await api.post('/external/customer', { buyerId: 'B-1' });
      await api.post('/billing/usageDriver', { name: 'calls', description: 'API calls', unit: 'count' });
      const before = (await api.get('/billing/contract/feeComponent/ratecard')).body.data.length;
      const contracts = await api.get('/billing/contract/filter');
      const contract = contracts.body.data.docs[1];
      const fc = contract.feeComponents[0].feeComponentId;
      const rcs = (await api.get(`/billing/ratecard/feeComponent/fetch/${fc}`)).body.data.ratecards;
      await api.post(`/billing/contract/feeComponent/ratecard/${contract.id}`, {
        feeComponentId: fc,
        ratecardRelations: [{ ratecardId: rcs[0].id }],
      });
      expect((await api.get('/billing/contract/feeComponent/ratecard')).body.data.length).toBe(before + 1);

      expect((await api.admin('POST', '/reset')).body).toEqual({ ok: true });

      expect((await api.list()).body.data.totalDocs).toBe(0);
      expect((await api.get('/external/customer/search')).body.data.totalDocs).toBe(0);
      expect((await api.get('/billing/usageDriver/filter')).body.data.totalDocs).toBe(0);
      expect((await api.get('/billing/contract/feeComponent/ratecard')).body.data.length).toBe(before);
      await api.upsert(invoice({ invoiceId: 'after-reset' }));
      expect((await listed('after-reset')).id).toBe('inv_1');
    });
  });

  describe('clock', () => {
    it('given the clock set to an instant, when an invoice is upserted, then createdAt/updatedAt come from it; null returns to real time', async () => {
      const set = await api.setClock('2025-01-15T10:00:00Z');
      expect(set.body).toMatchObject({ today: '2025-01-15', isSet: true });
      const inv = invoice();
      await api.upsert(inv);
      const r = await listed(inv.invoiceId);
      expect(r.createdAt).toMatch(/^2025-01-15 10:00:0\d$/);
      expect(r.updatedAt).toBe(r.createdAt);

      const back = await api.setClock(null);
      expect(back.body.isSet).toBe(false);
      expect(back.body.today).toBe(new Date().toISOString().slice(0, 10));
    });

    it('given a set clock, when time passes, then it advances with real time; advanceMs moves it forward', async () => {
      await api.setClock('2025-01-15T10:00:00Z');
      skewMs += 30;
      const now = Date.parse((await api.admin('GET', '/clock')).body.now);
      expect(now).toBeGreaterThanOrEqual(Date.parse('2025-01-15T10:00:00.025Z'));
      const later = await api.admin('POST', '/clock', { advanceMs: 86_400_000 });
      expect(later.body.today).toBe('2025-01-16');
    });

    it('given an invalid instant, when the clock is set, then 400 names now', async () => {
      const r = await api.admin('POST', '/clock', { now: 'yesterday' });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain('now: ');
    });
  });

  describe('invoice mutations', () => {
    it('given a finalized invoice, when voided, then lifecycle VOIDED, updatedAt moves, and a later upsert keeps it VOIDED', async () => {
      await api.setClock('2025-02-01T08:00:00Z');
      const inv = invoice();
      await api.upsert(inv);
      await api.admin('POST', '/clock', { advanceMs: 3_600_000 });
      const voided = await api.admin('POST', `/invoices/${inv.invoiceId}/void`);
      expect(voided.body).toMatchObject({
        lifecycleStatus: 'VOIDED',
        updatedAt: expect.stringMatching(/^2025-02-01 09:00/),
      });
      expect((await api.upsert({ ...inv, invoiceTotal: 200 })).status).toBe(200);
      expect(await listed(inv.invoiceId)).toMatchObject({ lifecycleStatus: 'VOIDED', invoiceTotal: 200 });
    });

    it('given an invoice, when deleted, then it never lists, the admin view shows DELETED, an upsert answers 409 and void answers 409', async () => {
      const inv = invoice();
      await api.upsert(inv);
      expect((await api.admin('POST', `/invoices/${inv.invoiceId}/delete`)).body.lifecycleStatus).toBe('DELETED');
      expect(
        (await api.list({ invoiceIds: [inv.invoiceId], lifecycleStatuses: ['DELETED', 'FINALIZED'] })).body.data
          .totalDocs,
      ).toBe(0);
      expect((await record(inv.invoiceId)).lifecycleStatus).toBe('DELETED');
      const again = await api.upsert(inv);
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ error: 'CONFLICT', message: expect.stringContaining('invoice.invoiceId') });
      expect((await api.admin('POST', `/invoices/${inv.invoiceId}/void`)).status).toBe(409);
    });

    it('given payments of 0.1 and 0.2 on a 0.3 invoice, when recorded, then paid is exactly 0.3, outstanding 0 and the status PAID', async () => {
      const inv = invoice({ invoiceSubtotal: 0.3, invoiceTotal: 0.3, invoiceTax: undefined });
      await api.upsert(inv);
      const first = await api.admin('POST', `/invoices/${inv.invoiceId}/payment`, { amount: 0.1 });
      expect(first.body).toMatchObject({
        invoicePaidAmount: 0.1,
        invoiceOutstandingAmount: 0.2,
        paymentStatus: 'PARTIALLY_PAID',
      });
      const second = await api.admin('POST', `/invoices/${inv.invoiceId}/payment`, { amount: 0.2 });
      expect(second.body).toMatchObject({
        invoicePaidAmount: 0.3,
        invoiceOutstandingAmount: 0,
        paymentStatus: 'PAID',
        invoiceStatus: 'CLOSED',
      });
      expect((await api.admin('POST', `/invoices/${inv.invoiceId}/payment`, { amount: -1 })).status).toBe(400);
    });

    it('given a billing-side edit, when patched, then the field changes, updatedAt moves, and the record still parses', async () => {
      await api.setClock('2025-02-01T08:00:00Z');
      const inv = invoice({ erpId: 'erp-1' });
      await api.upsert(inv);
      await api.admin('POST', '/clock', { advanceMs: 60_000 });
      const patched = await api.admin('POST', `/invoices/${inv.invoiceId}/patch`, { invoiceTotal: 1, erpId: null });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        invoiceTotal: 1,
        erpId: null,
        updatedAt: expect.stringMatching(/^2025-02-01 08:01/),
      });
      expect(patched.body.createdAt).toMatch(/^2025-02-01 08:00/);
      expect(InvoiceRecord.safeParse(patched.body).success).toBe(true);
    });

    it('given a patch with an unknown field or an invalid value, when posted, then 400 names the field', async () => {
      const inv = invoice();
      await api.upsert(inv);
      const unknown = await api.admin('POST', `/invoices/${inv.invoiceId}/patch`, { colour: 'red' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toContain('colour');
      const invalid = await api.admin('POST', `/invoices/${inv.invoiceId}/patch`, { invoiceCurrency: 'rupees' });
      expect(invalid.status).toBe(400);
      expect(invalid.body.message).toContain('invoiceCurrency: ');
      const id = await api.admin('POST', `/invoices/${inv.invoiceId}/patch`, { invoiceId: 'other' });
      expect(id.status).toBe(400);
    });

    it('given a raw insert (an orphan billing-side invoice, or a DRAFT), when listed, then it shows; a second insert with that id is 409', async () => {
      const orphan = invoice({ invoiceId: 'orphan-1', invoiceOriginSource: 'EXTERNAL_SYSTEM_B' });
      const r = await api.admin('POST', '/invoices', { invoice: orphan, lifecycleStatus: 'DRAFT' });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ invoiceId: 'orphan-1', lifecycleStatus: 'DRAFT' });
      expect((await listed('orphan-1')).lifecycleStatus).toBe('DRAFT');
      expect((await api.admin('POST', '/invoices', { invoice: orphan })).status).toBe(409);
    });

    it('given no or an unknown ?company=, when an invoice is mutated, then 400 or 404; an unknown invoice is 404', async () => {
      expect((await api.admin('POST', '/invoices/x/void', undefined, '')).status).toBe(400);
      expect((await api.admin('POST', '/invoices/x/void', undefined, 'initech')).status).toBe(404);
      const r = await api.admin('POST', '/invoices/nope/void');
      expect(r.status).toBe(404);
      expect(r.body.error).toBe('NOT_FOUND');
    });

    it('given invoices in a company, when the other company mutates by the same id, then it is not found (company scoped)', async () => {
      const inv = invoice();
      await api.upsert(inv);
      expect((await api.admin('POST', `/invoices/${inv.invoiceId}/void`, undefined, 'globex')).status).toBe(404);
    });
  });

  it('given data, when stats are read, then counts per company come back', async () => {
    await api.upsert(invoice());
    const r = await api.admin('GET', '/stats', undefined, '');
    expect(r.body.companies.acme).toMatchObject({ invoices: 1, customers: 0, contracts: 8 });
    expect(r.body.companies.globex.invoices).toBe(0);
  });
});
