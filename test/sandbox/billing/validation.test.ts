import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, invoice, startApi } from './helpers.js';

describe('billing emulator request validation', () => {
  let api: Api;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.emu.close());

  it('given an invoice without invoiceId, when it is upserted, then 400 names invoice.invoiceId', async () => {
    const { invoiceId: _drop, ...rest } = invoice();
    const r = await api.post('/external/invoice/upsert', { invoice: rest });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('BAD_REQUEST');
    expect(r.body.message).toMatch(/^invoice\.invoiceId: /);
  });

  it('given a value outside an enum, when it is upserted, then 400 names the field', async () => {
    const r = await api.upsert(invoice({ invoiceOriginSource: 'SAP' as never }));
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('invoice.invoiceOriginSource: ');
  });

  it('given a string where a number belongs, when it is upserted, then 400 names the field and does not echo the value', async () => {
    const r = await api.upsert(invoice({ invoiceTotal: '118.00' as never }));
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('invoice.invoiceTotal: ');
    expect(r.body.message).toContain('expected number');
    expect(r.body.message).not.toContain('118.00');
  });

  it('given a nested bad value, when it is upserted, then the path goes down to it', async () => {
    const r = await api.upsert(invoice({ lineItems: [{ subTotal: 1, total: 'x' as never }] }));
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('invoice.lineItems.0.total: ');
  });

  it('given a negative page size, when invoices are listed, then 400 names pageSize', async () => {
    const r = await api.list({ pageSize: -5 });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('pageSize: must be 1 or more');
  });

  it('given an unknown lifecycle status or a page size over 500, when invoices are listed, then 400 names the parameter', async () => {
    const bad = await api.list({ lifecycleStatuses: ['FINALIZED', 'ARCHIVED'] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('lifecycleStatuses.1: ');
    const big = await api.list({ pageSize: 501 });
    expect(big.body.message).toBe('pageSize: must be at most 500');
  });

  it('given an unknown query parameter, when invoices are listed, then 400', async () => {
    const r = await api.list({ colour: 'blue' });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('colour');
  });

  it('given a body that is not JSON, when it is posted, then 400 BAD_REQUEST', async () => {
    const r = await api.post('/external/invoice/upsert', undefined, { raw: '{"invoice": ' });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('BAD_REQUEST');
    expect(r.body.message).toContain('not valid JSON');
  });

  it('given no body at all, when an upsert is posted, then 400 at the root', async () => {
    const r = await api.post('/external/invoice/upsert');
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^\(root\): /);
  });

  it('given a body over 1 MiB, when it is posted, then 413 PAYLOAD_TOO_LARGE', async () => {
    const r = await api.upsert(invoice({ referenceText: 'x'.repeat(1024 * 1024 + 1) }));
    expect(r.status).toBe(413);
    expect(r.body.error).toBe('PAYLOAD_TOO_LARGE');
  });

  it('given a body just under 1 MiB, when it is posted, then it is accepted', async () => {
    const r = await api.upsert(invoice({ referenceText: 'x'.repeat(1024 * 1024 - 2048) }));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
  });

  it('given an unknown path or a wrong method, when called, then 404 NOT_FOUND or 405 METHOD_NOT_ALLOWED', async () => {
    const missing = await api.get('/external/nothing');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('NOT_FOUND');
    const wrong = await api.get('/external/invoice/upsert');
    expect(wrong.status).toBe(405);
    expect(wrong.body.error).toBe('METHOD_NOT_ALLOWED');
  });
});
