import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXeroEmulator, XERO_SANDBOX_DEFAULTS as D, type XeroEmulator } from '../../../sandbox/xero/index.js';
import { expectValidPdf } from '../pdf-checks.js';

describe('Xero sandbox: invoices and credit notes as PDF (Accept: application/pdf)', () => {
  let emu: XeroEmulator;
  let token: string;
  beforeAll(async () => {
    emu = await startXeroEmulator({ records: 5, contacts: 4, creditNotes: 2 });
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
  afterAll(() => emu.close());
  const get = (path: string, bearer: string | undefined, accept = 'application/pdf') =>
    fetch(`${emu.url}/api.xro/2.0/${path}`, {
      headers: {
        accept,
        'xero-tenant-id': emu.tenantIds[0]!,
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
    });

  it('given a valid token, when an invoice or a credit note is read with Accept: application/pdf, then a small valid PDF naming it comes back', async () => {
    const tenant = emu.tenantIds[0]!;
    const invoice = emu.store.invoices(tenant)[0]!;
    const note = emu.store.creditNotes(tenant)[0]!;
    for (const [path, name] of [
      [`Invoices/${invoice.InvoiceID}`, `Invoice ${invoice.InvoiceNumber}`],
      [`CreditNotes/${note.CreditNoteID}`, `Credit note ${note.CreditNoteNumber}`],
    ] as const) {
      const res = await get(path, token);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(expectValidPdf(Buffer.from(await res.arrayBuffer()))).toContain(name);
    }
    // The same read as JSON is unchanged.
    const json = await get(`Invoices/${invoice.InvoiceID}`, token, 'application/json');
    expect(((await json.json()) as { Invoices: Array<{ InvoiceID: string }> }).Invoices[0]!.InvoiceID).toBe(
      invoice.InvoiceID,
    );
  });

  it('given no token, then 401 and no PDF; given an unknown id, then 404', async () => {
    const id = emu.store.invoices(emu.tenantIds[0]!)[0]!.InvoiceID;
    const none = await get(`Invoices/${id}`, undefined);
    expect(none.status).toBe(401);
    expect(none.headers.get('content-type')).not.toBe('application/pdf');
    const unknown = await get('Invoices/00000000-0000-0000-0000-000000000000', token);
    expect(unknown.status).toBe(404);
  });
});
