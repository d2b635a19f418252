import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_ATTACH_KEY, ACME_KEY, type Api, GLOBEX_KEY, invoice, startApi } from './helpers.js';

describe('billing emulator authentication', () => {
  let api: Api;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.emu.close());

  it('given no key header, when an endpoint is called, then 401 names the header it expects', async () => {
    const r = await api.list({}, { key: null });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: 'UNAUTHORIZED', message: expect.stringContaining('X-Service-Signature') });
  });

  it('given an unknown key, when an endpoint is called, then 401 and the message does not echo the key', async () => {
    const secretish = 'not-a-real-key-123456';
    const r = await api.upsert(invoice(), { key: secretish });
    expect(r.status).toBe(401);
    expect(r.body.message).toContain('X-Service-Signature');
    expect(r.body.message).not.toContain(secretish);
  });

  it('given the attachment key on a service endpoint, when it is called, then 401 says which header is expected', async () => {
    const r = await api.upsert(invoice(), { attachmentKey: ACME_ATTACH_KEY });
    expect(r.status).toBe(401);
    expect(r.body.message).toContain('expects the X-Service-Signature header');
    expect(r.body.message).not.toContain(ACME_ATTACH_KEY);
  });

  it('given the service key on the attachment endpoints (6 and 7), when they are called, then 401 asks for the attachment header', async () => {
    const upload = await api.post('/invoice/attachment/upload', {
      invoiceNumber: 'X',
      attachmentUrl: 'https://files.example/a.pdf',
    });
    const list = await api.get('/invoice/attachments', { query: { invoiceNumber: 'X' } });
    for (const r of [upload, list]) {
      expect(r.status).toBe(401);
      expect(r.body.message).toContain('X-Service-Attachment-Upload-Signature');
      expect(r.body.message).not.toContain(ACME_KEY);
    }
  });

  it('given a service key value sent in the attachment header, when endpoint 7 is called, then it is an unknown key (401)', async () => {
    const r = await api.get('/invoice/attachments', { attachmentKey: ACME_KEY, query: { invoiceNumber: 'X' } });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('unknown key in the X-Service-Attachment-Upload-Signature header');
  });

  it('given an invoice upserted with the acme key, when globex lists invoices, then it does not see it (company scoping)', async () => {
    const inv = invoice();
    expect((await api.upsert(inv, { key: ACME_KEY })).status).toBe(200);
    const acme = await api.list({ invoiceIds: [inv.invoiceId] }, { key: ACME_KEY });
    const globex = await api.list({ invoiceIds: [inv.invoiceId] }, { key: GLOBEX_KEY });
    expect(acme.body.data.totalDocs).toBe(1);
    expect(globex.body.data.totalDocs).toBe(0);
  });
});
