import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXeroEmulator, XERO_SANDBOX_DEFAULTS as D, type XeroEmulator } from '../../../sandbox/xero/index.js';

type Json = Record<string, any>;
const published = (name: string): Json =>
  JSON.parse(readFileSync(new URL(`../../fixtures/golden/xero/${name}.json`, import.meta.url), 'utf8')) as Json;

let emu: XeroEmulator;
let token: string;
beforeAll(async () => {
  emu = await startXeroEmulator({ records: 10, contacts: 6, creditNotes: 2 });
  const res = await fetch(emu.tokenUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${D.clientId}:${D.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: D.refreshToken }).toString(),
  });
  token = ((await res.json()) as { access_token: string }).access_token;
});
afterAll(async () => emu.close());

async function api(path: string, ims?: string): Promise<{ status: number; json: Json }> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    'xero-tenant-id': emu.tenantIds[0]!,
    accept: 'application/json',
  };
  if (ims) headers['if-modified-since'] = ims;
  const res = await fetch(`${emu.apiBase}/${path}`, { headers });
  const text = await res.text();
  // Xero answers an unknown id with a plain-text 404.
  return {
    status: res.status,
    json: (res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : { text }) as Json,
  };
}

async function admin(path: string, body: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${emu.url}/__admin/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Json };
}

describe('Xero emulator: records replayed in Xero’s own JSON', () => {
  it('given Xero’s published invoice posted to /__admin/records, when read by id and listed with page, then it is the record exactly; listed without page, it has no LineItems', async () => {
    const invoice = published('invoice-paid').Invoices[0];
    expect(await admin('records', { entity: 'Invoices', records: [invoice] })).toEqual({
      status: 200,
      json: { entity: 'Invoices', ids: [invoice.InvoiceID] },
    });
    expect((await api(`Invoices/${invoice.InvoiceID}`)).json.Invoices).toEqual([invoice]);
    expect((await api(`Invoices?page=1&IDs=${invoice.InvoiceID}`)).json.Invoices).toEqual([invoice]);
    const summary = (await api(`Invoices?IDs=${invoice.InvoiceID}`)).json.Invoices as Json[];
    const { LineItems: _lines, ...rest } = invoice;
    expect(summary).toEqual([rest]);
  });

  it('given replayed records, when listed with If-Modified-Since, then their own UpdatedDateUTC decides', async () => {
    const note = published('credit-note-gst-exclusive').CreditNotes[0]; // UpdatedDateUTC 2019-03-05T18:59:06.157Z
    await admin('records', { entity: 'CreditNotes', records: [note] });
    const ids = (r: { json: Json }) => (r.json.CreditNotes as Json[]).map((c) => c.CreditNoteID);
    expect(ids(await api('CreditNotes?page=1', '2019-03-05T18:59:05'))).toContain(note.CreditNoteID);
    expect(ids(await api('CreditNotes?page=1', '2019-03-05T18:59:06'))).not.toContain(note.CreditNoteID);
  });

  it('given a record with a field of the wrong shape, when posted, then 400 names the field’s path and nothing is stored', async () => {
    const invoice = {
      ...published('invoice-paid').Invoices[0],
      InvoiceID: '11111111-2222-4333-8444-555555555555',
      UpdatedDateUTC: '2019-03-07',
    };
    const r = await admin('records', { entity: 'Invoices', records: [invoice] });
    expect(r.status).toBe(400);
    expect(r.json.error).toContain('records.0.UpdatedDateUTC');
    expect((await api('Invoices/11111111-2222-4333-8444-555555555555')).status).toBe(404);
  });

  it('given Xero’s published organisation and tax rates posted to /__admin/organisation, when read, then they are served as given', async () => {
    const organisation = published('organisation').Organisations[0];
    const taxRates = published('tax-rates').TaxRates;
    expect((await admin('organisation', { Organisation: organisation, TaxRates: taxRates })).status).toBe(200);
    expect((await api('Organisation')).json.Organisations).toEqual([organisation]);
    expect((await api('TaxRates')).json.TaxRates).toEqual(taxRates);
  });
});
