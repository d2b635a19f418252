import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startZohoEmulator, type ZohoEmulator } from '../../../sandbox/zoho-books/index.js';
import { accessToken, booksGet, listAll } from './zoho-test-client.js';
import { checkDocument, type TaxInfo } from './wire-arithmetic.js';

type Json = Record<string, unknown>;

let emu: ZohoEmulator;
let token: string;

beforeAll(async () => {
  emu = await startZohoEmulator({
    seed: 11,
    records: 450,
    ratePerMinute: 0,
    clock: { now: '2026-01-10T06:30:00Z', frozen: true },
  });
  token = await accessToken(emu);
});
afterAll(() => emu.close());

describe('Zoho emulator lists and details', () => {
  it('given GET /invoices, when the list is read, then rows are summaries without line_items and the envelope is {code:0, message:"success", invoices, page_context}', async () => {
    const r = await booksGet(emu, token, '/invoices', { per_page: 10 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 0, message: 'success' });
    const rows = r.body.invoices as Json[];
    expect(rows).toHaveLength(10);
    for (const row of rows) {
      expect(row).not.toHaveProperty('line_items');
      expect(row).not.toHaveProperty('taxes');
      expect(row).toHaveProperty('last_modified_time');
      expect(typeof row.invoice_id).toBe('string');
    }
    expect(r.body.page_context).toEqual({
      page: 1,
      per_page: 10,
      has_more_page: true,
      report_name: 'Invoices',
      applied_filter: 'Status.All',
      sort_column: 'created_time',
      sort_order: 'D',
    });
    expect(r.headers.get('content-type')).toContain('application/json');
  });

  it('given an invoice id from the list, when its detail is read, then it has line_items, taxes, addresses and GST fields, and its amounts add up', async () => {
    const list = await booksGet(emu, token, '/invoices', { per_page: 5, status: 'partially_paid' });
    const id = String((list.body.invoices as Json[])[0]?.invoice_id);
    const r = await booksGet(emu, token, `/invoices/${id}`);
    expect(r.status).toBe(200);
    const inv = r.body.invoice as Json;
    expect(inv.invoice_id).toBe(id);
    expect((inv.line_items as Json[]).length).toBeGreaterThan(0);
    for (const key of [
      'taxes',
      'billing_address',
      'shipping_address',
      'gst_treatment',
      'place_of_supply',
      'bcy_total',
      'payment_made',
      'credits_applied',
      'balance',
    ])
      expect(inv).toHaveProperty(key);
    const taxesList = await booksGet(emu, token, '/settings/taxes');
    const taxes = new Map<string, TaxInfo>();
    for (const t of taxesList.body.taxes as Json[]) {
      let components = [String(t.tax_id)];
      if (t.tax_type === 'tax_group') {
        const g = await booksGet(emu, token, `/settings/taxgroups/${String(t.tax_id)}`);
        components = ((g.body.tax_group as Json).taxes as Json[]).map((c) => String(c.tax_id));
      }
      taxes.set(String(t.tax_id), {
        tax_id: String(t.tax_id),
        tax_name: String(t.tax_name),
        basisPoints: Math.round(Number(t.tax_percentage) * 100),
        tax_type: String(t.tax_type),
        tax_specific_type: String(t.tax_specific_type),
        components,
      });
    }
    expect(checkDocument(inv, taxes, String(inv.invoice_number)).problems).toEqual([]);
  });

  it('given an unknown invoice id, when its detail is read, then 404 {code:1002, message:"Invoice does not exist."}', async () => {
    const r = await booksGet(emu, token, '/invoices/11149000000000001');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 1002, message: 'Invoice does not exist.' });
  });

  it('given per_page=100, when every page is read while has_more_page is true, then all invoices arrive once and the last page says has_more_page false', async () => {
    const first = await booksGet(emu, token, '/invoices', { per_page: 100, page: 5 });
    expect((first.body.invoices as Json[]).length).toBe(50);
    expect((first.body.page_context as Json).has_more_page).toBe(false);
    const rows = await listAll(emu, token, '/invoices', 'invoices', { per_page: 100 });
    expect(rows).toHaveLength(450);
    expect(new Set(rows.map((r) => r.invoice_id)).size).toBe(450);
    const beyond = await booksGet(emu, token, '/invoices', { per_page: 100, page: 9 });
    expect(beyond.body.invoices).toEqual([]);
  });

  it('given per_page above 200, when the list is read, then it is capped at 200 and page_context.per_page says 200', async () => {
    const r = await booksGet(emu, token, '/invoices', { per_page: 500 });
    expect(r.status).toBe(200);
    expect(r.body.invoices as Json[]).toHaveLength(200);
    expect((r.body.page_context as Json).per_page).toBe(200);
    const dflt = await booksGet(emu, token, '/invoices');
    expect(dflt.body.invoices as Json[]).toHaveLength(200);
  });

  it('given malformed paging or sorting, when the list is read, then 400 with code 2 naming the parameter', async () => {
    expect((await booksGet(emu, token, '/invoices', { per_page: 'abc' })).body).toEqual({
      code: 2,
      message: 'Invalid value passed for per_page',
    });
    expect((await booksGet(emu, token, '/invoices', { page: 0 })).status).toBe(400);
    const bySort = await booksGet(emu, token, '/invoices', { sort_column: 'last_modified_time' });
    expect(bySort.status).toBe(400);
    expect(bySort.body).toEqual({ code: 2, message: 'Invalid value passed for sort_column' });
    expect((await booksGet(emu, token, '/creditnotes', { sort_column: 'last_modified_time' })).status).toBe(400);
    expect((await booksGet(emu, token, '/invoices', { filter_by: 'Status.Nope' })).body).toEqual({
      code: 2,
      message: 'Invalid value passed for filter_by',
    });
  });

  it('given last_modified_time with a +0530 offset sent as %2B, when invoices are listed, then exactly those modified at or after it come back (inclusive)', async () => {
    const all = await listAll(emu, token, '/invoices', 'invoices');
    const stamps = all.map((r) => String(r.last_modified_time)).sort();
    const cursor = stamps[Math.floor(stamps.length * 0.8)] ?? '';
    expect(cursor).toMatch(/\+0530$/);
    const url = new URL(`${emu.apiBase}/invoices`);
    url.searchParams.set('organization_id', emu.organizationId);
    url.searchParams.set('last_modified_time', cursor);
    expect(url.search).toContain('%2B0530');
    const rows = await listAll(emu, token, '/invoices', 'invoices', { last_modified_time: cursor });
    const expected = all
      .filter((r) => String(r.last_modified_time) >= cursor)
      .map((r) => r.invoice_id)
      .sort();
    expect(rows.map((r) => r.invoice_id).sort()).toEqual(expected);
    expect(rows.some((r) => r.last_modified_time === cursor)).toBe(true);
  });

  it('given the same instant written in UTC with a colon offset, when used as last_modified_time, then it selects the same invoices', async () => {
    const cursor = '2025-10-01T09:00:00+0530';
    const a = await listAll(emu, token, '/invoices', 'invoices', { last_modified_time: cursor });
    const b = await listAll(emu, token, '/invoices', 'invoices', { last_modified_time: '2025-10-01T03:30:00+00:00' });
    expect(b.map((r) => r.invoice_id)).toEqual(a.map((r) => r.invoice_id));
    expect(a.length).toBeGreaterThan(0);
  });

  it('given an unencoded "+" in last_modified_time (decoded as a space), when the list is read, then 400 code 2 instead of a silently wrong result', async () => {
    const r = await fetch(
      `${emu.apiBase}/invoices?organization_id=${emu.organizationId}&last_modified_time=2025-10-01T09:00:00+0530`,
      {
        headers: { authorization: `Zoho-oauthtoken ${token}` },
      },
    );
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ code: 2, message: 'Invalid value passed for last_modified_time' });
  });

  it('given status, customer_id, date and filter_by filters, when invoices are listed, then only matching rows come back and applied_filter echoes filter_by', async () => {
    const voids = await listAll(emu, token, '/invoices', 'invoices', { status: 'void' });
    expect(voids.length).toBeGreaterThan(0);
    expect(voids.every((r) => r.status === 'void')).toBe(true);
    const paid = await booksGet(emu, token, '/invoices', { filter_by: 'Status.Paid' });
    expect((paid.body.page_context as Json).applied_filter).toBe('Status.Paid');
    expect((paid.body.invoices as Json[]).every((r) => r.status === 'paid')).toBe(true);
    const customer = String(voids[0]?.customer_id);
    const mine = await listAll(emu, token, '/invoices', 'invoices', { customer_id: customer });
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((r) => r.customer_id === customer)).toBe(true);
    const march = await listAll(emu, token, '/invoices', 'invoices', {
      date_start: '2025-03-01',
      date_end: '2025-03-31',
    });
    expect(march.length).toBeGreaterThan(0);
    expect(march.every((r) => String(r.date) >= '2025-03-01' && String(r.date) <= '2025-03-31')).toBe(true);
    const unpaid = await listAll(emu, token, '/invoices', 'invoices', { status: 'unpaid' });
    expect(unpaid.every((r) => ['sent', 'viewed', 'overdue', 'partially_paid'].includes(String(r.status)))).toBe(true);
  });

  it('given sort_column=total and sort_order=A, when invoices are listed, then totals ascend', async () => {
    const r = await booksGet(emu, token, '/invoices', { sort_column: 'total', sort_order: 'A', per_page: 200 });
    const totals = (r.body.invoices as Json[]).map((x) => Number(x.total));
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
  });

  it('given lists already read (and so sorted and kept), when invoices are edited, voided, created and a contact renamed, then the next list calls show every change', async () => {
    const own = await startZohoEmulator({
      seed: 12,
      records: 60,
      ratePerMinute: 0,
      clock: { now: '2026-01-10T06:30:00Z', frozen: true },
    });
    try {
      const t = await accessToken(own);
      const ids = async (params: Record<string, string | number>) =>
        (await listAll(own, t, '/invoices', 'invoices', { per_page: 200, ...params })).map((r) => String(r.invoice_id));
      const allBefore = await ids({});
      const voidBefore = await ids({ status: 'void' });
      const byTotal = await ids({ sort_column: 'total', sort_order: 'A' });
      const open = own.store.invoices().find((i) => i.status === 'sent' || i.status === 'overdue')!;
      own.store.voidInvoice(open.invoice_id);
      const created = own.store.createInvoice();
      expect(await ids({ status: 'void' })).toEqual(expect.arrayContaining([...voidBefore, open.invoice_id]));
      expect((await ids({ status: 'void' })).length).toBe(voidBefore.length + 1);
      expect(await ids({})).toHaveLength(allBefore.length + 1);
      expect(await ids({ sort_column: 'total', sort_order: 'A' })).toContain(created.id);
      expect(byTotal).not.toContain(created.id);
      const since = await booksGet(own, t, '/invoices', { last_modified_time: created.last_modified_time! });
      expect((since.body.invoices as Json[]).map((r) => String(r.invoice_id))).toEqual(
        expect.arrayContaining([open.invoice_id, created.id]),
      );

      const contact = own.store.contacts().find((c) => c.contact_type === 'customer')!;
      await listAll(own, t, '/contacts', 'contacts', { per_page: 200 });
      own.store.editContact(contact.contact_id, { contact_name: 'Renamed After Listing Pvt Ltd' });
      const contacts = await listAll(own, t, '/contacts', 'contacts', { per_page: 200 });
      expect(contacts.find((c) => String(c.contact_id) === contact.contact_id)?.contact_name).toBe(
        'Renamed After Listing Pvt Ltd',
      );
    } finally {
      await own.close();
    }
  });

  it('given credit notes, when listed and read, then the list has no line_items and the detail has lines, invoices[] applications and updated_time', async () => {
    const list = await listAll(emu, token, '/creditnotes', 'creditnotes');
    expect(list.length).toBe(60);
    expect(list.every((c) => !('line_items' in c) && typeof c.last_modified_time === 'string')).toBe(true);
    const applied = list.find((c) => c.status === 'closed');
    const r = await booksGet(emu, token, `/creditnotes/${String(applied?.creditnote_id)}`);
    const cn = r.body.creditnote as Json;
    expect((cn.line_items as Json[]).length).toBeGreaterThan(0);
    expect((cn.invoices as Json[]).length).toBeGreaterThan(0);
    expect(cn.updated_time).toBe(applied?.last_modified_time);
    expect(cn.balance).toBe(0);
    const since = await listAll(emu, token, '/creditnotes', 'creditnotes', {
      last_modified_time: '2025-07-01T00:00:00+0530',
    });
    expect(since.every((c) => String(c.last_modified_time) >= '2025-07-01T00:00:00+0530')).toBe(true);
    expect((await booksGet(emu, token, '/creditnotes/1')).body).toEqual({
      code: 1002,
      message: 'Credit Note does not exist.',
    });
  });

  it('given contacts, when listed with and without contact_type=customer, then vendors appear only without it, and sort_column=last_modified_time is allowed', async () => {
    const everyone = await listAll(emu, token, '/contacts', 'contacts');
    const customers = await listAll(emu, token, '/contacts', 'contacts', { contact_type: 'customer' });
    expect(everyone.some((c) => c.contact_type === 'vendor')).toBe(true);
    expect(customers.every((c) => c.contact_type === 'customer')).toBe(true);
    expect(customers).toHaveLength(80);
    const sorted = await booksGet(emu, token, '/contacts', {
      contact_type: 'customer',
      sort_column: 'last_modified_time',
      sort_order: 'D',
    });
    const stamps = (sorted.body.contacts as Json[]).map((c) => String(c.last_modified_time));
    expect(stamps).toEqual([...stamps].sort().reverse());
    const id = String(customers[0]?.contact_id);
    const detail = await booksGet(emu, token, `/contacts/${id}`);
    const contact = detail.body.contact as Json;
    expect((contact.contact_persons as Json[]).length).toBeGreaterThan(0);
    expect(contact).toHaveProperty('billing_address');
    expect(contact).toHaveProperty('place_of_contact');
  });

  it('given /organizations and /settings/taxes, when read, then the org is INR / Asia/Kolkata and taxes carry tax_specific_type', async () => {
    const orgs = await booksGet(emu, token, '/organizations', { organization_id: null });
    expect(orgs.status).toBe(200);
    expect((orgs.body.organizations as Json[])[0]).toMatchObject({
      organization_id: '60012345678',
      currency_code: 'INR',
      time_zone: 'Asia/Kolkata',
      state_code: 'KA',
    });
    const taxes = (await booksGet(emu, token, '/settings/taxes')).body.taxes as Json[];
    expect(new Set(taxes.filter((t) => t.tax_type === 'tax').map((t) => t.tax_specific_type))).toEqual(
      new Set(['cgst', 'sgst', 'igst', 'cess']),
    );
    const group = taxes.find((t) => t.tax_name === 'GST18');
    const g = await booksGet(emu, token, `/settings/taxgroups/${String(group?.tax_id)}`);
    expect(((g.body.tax_group as Json).taxes as Json[]).map((t) => t.tax_name)).toEqual(['CGST9', 'SGST9']);
  });

  it('given an unknown path or method, when called, then Zoho-shaped 404 / 405 bodies', async () => {
    const r = await booksGet(emu, token, '/nope');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 5, message: 'Invalid URL Passed' });
    const post = await fetch(`${emu.apiBase}/invoices?organization_id=${emu.organizationId}`, {
      method: 'DELETE',
      headers: { authorization: `Zoho-oauthtoken ${token}` },
    });
    expect(post.status).toBe(405);
    expect(await post.json()).toMatchObject({ code: 37 });
  });
});
