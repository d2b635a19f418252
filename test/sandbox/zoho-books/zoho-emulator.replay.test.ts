import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startZohoEmulator, type ZohoEmulator } from '../../../sandbox/zoho-books/index.js';
import { accessToken, admin, booksGet } from './zoho-test-client.js';

type Json = Record<string, unknown>;

let emu: ZohoEmulator;
let token: string;

beforeAll(async () => {
  emu = await startZohoEmulator({
    seed: 3,
    records: 20,
    ratePerMinute: 0,
    clock: { now: '2026-01-10T06:30:00Z', frozen: true },
  });
  token = await accessToken(emu);
});
afterAll(() => emu.close());

/** A Zoho invoice detail as Zoho prints it (ids as numbers, as in Zoho's own published examples). */
const invoice = (id: number, modified: string, extra: Json = {}): Json => ({
  invoice_id: id,
  invoice_number: `INV-R${id}`,
  date: '2013-11-17',
  due_date: '2013-12-03',
  status: 'sent',
  customer_id: 982000000567001,
  customer_name: 'Bowman & Co',
  currency_code: 'USD',
  exchange_rate: 1,
  line_items: [{ line_item_id: 1, name: 'Hard Drive', rate: 120, quantity: 1, item_total: 120 }],
  sub_total: 120,
  tax_total: 0,
  total: 120,
  balance: 120,
  billing_address: {
    address: '4900 Hopyard Rd, Suite 310',
    city: 'Pleasanton',
    state: 'CA',
    zip: 94588,
    country: 'U.S.A',
  },
  created_time: '2013-11-18T02:17:40-0800',
  last_modified_time: modified,
  ...extra,
});

describe('Zoho emulator: records replayed in Zoho’s own JSON', () => {
  it('given an invoice posted to /__admin/records, when it is read, then the detail is the record exactly and the list row is its summary without line items', async () => {
    const record = invoice(982000000567114, '2013-11-18T02:02:51-0800', {
      custom_fields: [{ customfield_id: '46000000012845', value: 'Normal' }],
    });
    const posted = await admin(emu, 'POST', 'records', { entity: 'invoices', records: [record] });
    expect(posted.status).toBe(200);
    expect(posted.body).toMatchObject({ entity: 'invoices', ids: ['982000000567114'] });

    const detail = await booksGet<Json>(emu, token, '/invoices/982000000567114');
    expect(detail.status).toBe(200);
    expect(detail.body.invoice).toEqual(record);

    const list = await booksGet<{ invoices: Json[] }>(emu, token, '/invoices', { customer_id: '982000000567001' });
    const row = list.body.invoices.find((r) => String(r.invoice_id) === '982000000567114')!;
    expect(row).toMatchObject({
      invoice_number: 'INV-R982000000567114',
      total: 120,
      balance: 120,
      last_modified_time: '2013-11-18T02:02:51-0800',
    });
    expect(row).not.toHaveProperty('line_items');
    expect(row).not.toHaveProperty('billing_address');
  });

  it('given replayed invoices modified at different instants, when listed with last_modified_time, then only those modified at or after it come back (their own timestamps, their own offsets)', async () => {
    await admin(emu, 'POST', 'records', {
      entity: 'invoices',
      records: [
        invoice(700001, '2014-03-01T10:00:00+0530'),
        invoice(700002, '2014-03-01T10:00:01+0530'),
        invoice(700003, '2014-02-28T20:30:00-0800'),
      ],
    });
    const since = await booksGet<{ invoices: Json[] }>(emu, token, '/invoices', {
      last_modified_time: '2014-03-01T10:00:01+0530',
      search_text: 'INV-R7000',
    });
    // 700001 and 700003 are the same instant (04:30:00Z) printed in two offsets; 700002 is one second later.
    expect(since.body.invoices.map((r) => String(r.invoice_id)).sort()).toEqual(['700002']);
    const earlier = await booksGet<{ invoices: Json[] }>(emu, token, '/invoices', {
      last_modified_time: '2014-03-01T04:30:00+0000',
      search_text: 'INV-R7000',
    });
    expect(earlier.body.invoices.map((r) => String(r.invoice_id)).sort()).toEqual(['700001', '700002', '700003']);
  });

  it('given a credit note whose detail carries only updated_time, when listed, then its row carries that instant as last_modified_time', async () => {
    const note = {
      creditnote_id: '90300000072369',
      creditnote_number: 'CN-29',
      date: '2016-06-05',
      status: 'open',
      customer_id: '903000000000099',
      customer_name: 'Bowman Furniture',
      currency_code: 'USD',
      total: 450,
      balance: 10,
      line_items: [{ item_id: '90300000081501', name: 'Basic Monthly', quantity: 1 }],
      created_time: '2016-06-05T02:30:08-0700',
      updated_time: '2016-06-05T02:30:08-0700',
    };
    expect((await admin(emu, 'POST', 'records', { entity: 'creditnotes', records: [note] })).status).toBe(200);
    const list = await booksGet<{ creditnotes: Json[] }>(emu, token, '/creditnotes', {
      customer_id: '903000000000099',
    });
    expect(list.body.creditnotes).toEqual([
      {
        creditnote_id: '90300000072369',
        creditnote_number: 'CN-29',
        status: 'open',
        date: '2016-06-05',
        total: 450,
        balance: 10,
        customer_id: '903000000000099',
        customer_name: 'Bowman Furniture',
        currency_code: 'USD',
        created_time: '2016-06-05T02:30:08-0700',
        last_modified_time: '2016-06-05T02:30:08-0700',
      },
    ]);
    expect((await booksGet<Json>(emu, token, '/creditnotes/90300000072369')).body.creditnote).toEqual(note);
  });

  it('given a record with a field of the wrong shape, when posted, then the answer is 400 naming the field’s path and nothing is stored', async () => {
    const r = await admin<Json>(emu, 'POST', 'records', {
      entity: 'invoices',
      records: [invoice(800001, '2014-03-01T10:00:00+0530'), invoice(800002, 'yesterday')],
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('records.1.last_modified_time');
    expect((await booksGet(emu, token, '/invoices/800001')).status).toBe(404);
    const entity = await admin<Json>(emu, 'POST', 'records', { entity: 'bills', records: [{}] });
    expect(entity.status).toBe(400);
    expect(entity.body.message).toContain('entity');
  });

  it('given an organisation with its taxes posted to /__admin/organisation, when the settings are read, then they are the replayed ones and the API answers for its organization_id', async () => {
    const organization = {
      organization_id: '10229182',
      name: 'Zillium Inc',
      currency_code: 'USD',
      time_zone: 'PST',
      country: 'U.S.A',
    };
    const taxes = [{ tax_id: '982000000566009', tax_name: 'Sales Group', tax_percentage: 10.5, tax_type: 'tax' }];
    const r = await admin<Json>(emu, 'POST', 'organisation', { organization, taxes });
    expect(r.body).toEqual({ organization_id: '10229182' });
    const orgs = await booksGet<{ organizations: Json[] }>(emu, token, '/organizations', { organization_id: null });
    expect(orgs.body.organizations).toEqual([organization]);
    const url = new URL(`${emu.apiBase}/settings/taxes`);
    url.searchParams.set('organization_id', '10229182');
    const res = await fetch(url, { headers: { authorization: `Zoho-oauthtoken ${token}` } });
    expect(((await res.json()) as { taxes: Json[] }).taxes).toEqual(taxes);
    expect((await booksGet(emu, token, '/settings/taxes')).status).toBe(400);
  });
});
