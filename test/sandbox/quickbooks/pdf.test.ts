import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningQuickBooksEmulator, startQuickBooksEmulator } from '../../../sandbox/quickbooks/index.js';
import { expectValidPdf } from '../pdf-checks.js';

describe('QBO sandbox: invoices and credit memos as PDF', () => {
  let emu: RunningQuickBooksEmulator;
  beforeAll(async () => {
    emu = await startQuickBooksEmulator({ now: '2025-03-01T00:00:00Z', frozen: true, records: 5, creditMemos: 2 });
  });
  afterAll(() => emu.close());
  const pdf = (entity: string, id: string, token?: string) =>
    fetch(`${emu.url}/v3/company/${emu.realmId}/${entity}/${id}/pdf?minorversion=75`, {
      headers: { accept: 'application/pdf', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });

  it('given a valid token, when an invoice or a credit memo is asked for as PDF, then a small valid PDF comes back as application/pdf, naming its document', async () => {
    const token = emu.tokens.issue();
    for (const [entity, table] of [
      ['invoice', 'Invoice'],
      ['creditmemo', 'CreditMemo'],
    ] as const) {
      const row = emu.store.rows(table)[0] as { Id: string; DocNumber?: string };
      const res = await pdf(entity, row.Id, token);
      expect(res.status, entity).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      const text = expectValidPdf(Buffer.from(await res.arrayBuffer()));
      expect(text).toContain(`${table} ${row.DocNumber ?? row.Id}`);
    }
  });

  it('given no token, then the 401 AuthenticationFailed fault, and no PDF', async () => {
    const id = (emu.store.rows('Invoice')[0] as { Id: string }).Id;
    const res = await pdf('invoice', id);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('given an id the company does not have, then QuickBooks’ Object Not Found fault (610, HTTP 400)', async () => {
    const res = await pdf('invoice', '999999', emu.tokens.issue());
    expect(res.status).toBe(400);
    expect(((await res.json()) as { Fault: { Error: Array<{ code: string }> } }).Fault.Error[0]!.code).toBe('610');
  });
});
