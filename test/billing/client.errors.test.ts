import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BillingClient } from '../../src/billing/client.js';
import {
  AuthError,
  DataContractError,
  RateLimitedError,
  RejectedError,
  TransientError,
} from '../../src/errors/index.js';
import { invoice, KEYS, startBilling } from '../support/billing.js';

describe('billing client errors, against the emulator', () => {
  let ctx: Awaited<ReturnType<typeof startBilling>>;
  const faults = (body: unknown) =>
    fetch(`${ctx.emulator.url}/__admin/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const journal = async () =>
    (await (await fetch(`${ctx.emulator.url}/__admin/journal`)).json()) as { entries?: unknown[] } | unknown[];
  const journalLength = async () => {
    const j = await journal();
    return Array.isArray(j) ? j.length : (j.entries?.length ?? 0);
  };

  beforeAll(async () => {
    ctx = await startBilling();
  });
  afterAll(() => ctx.emulator.close());

  it('given a 429 with Retry-After 2, when upserting, then a retryable RateLimitedError with 2000 ms comes back after ONE request', async () => {
    await faults({ rateLimitNext: 1, retryAfterSeconds: 2 });
    const before = await journalLength();
    const err = await ctx.acme.upsertInvoice(invoice(1)).catch((e) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect(err.retryable).toBe(true);
    expect(err.retryAfterMs).toBe(2000);
    expect((await journalLength()) - before).toBe(1);
    await faults({});
  });

  it('given two 503s, when upserting with 2 retries, then the third attempt succeeds', async () => {
    await faults({ errorNext: 2, errorStatus: 503 });
    const before = await journalLength();
    await ctx.acme.upsertInvoice(invoice(2));
    expect((await journalLength()) - before).toBe(3);
    await faults({});
  });

  it('given a lasting 503, then a retryable TransientError after 1 + 2 attempts', async () => {
    await faults({ errorRate: 1, errorStatus: 503 });
    const err = await ctx.acme.upsertInvoice(invoice(3)).catch((e) => e);
    expect(err).toBeInstanceOf(TransientError);
    expect(err.retryable).toBe(true);
    expect(err.status).toBe(503);
    await faults({});
  });

  it('given connection resets, then a retryable TransientError naming the network code, and no key in the message', async () => {
    await faults({ resetRate: 1 });
    const err = await ctx.acme.upsertInvoice(invoice(4)).catch((e) => e);
    expect(err).toBeInstanceOf(TransientError);
    expect(err.message).toMatch(/network error/);
    expect(JSON.stringify(err)).not.toContain(KEYS.acme);
    expect(String(err.stack)).not.toContain(KEYS.acme);
    await faults({});
  });

  it('given an unknown key, then a non-retryable AuthError and the key is not in the error', async () => {
    const client = new BillingClient({ baseUrl: ctx.emulator.url, apiKey: 'canary-secret-key-123' });
    const err = await client.listInvoices({}).catch((e) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect(err.status).toBe(401);
    expect(err.retryable).toBe(false);
    expect(`${err.message} ${err.stack} ${JSON.stringify(err)}`).not.toContain('canary-secret-key-123');
  });

  it('given the wrong header kind (service key on an attachment endpoint), then 401', async () => {
    const client = new BillingClient({ baseUrl: ctx.emulator.url, apiKey: KEYS.acme, attachmentKey: KEYS.acme });
    await expect(client.listInvoiceAttachments({ invoiceNumber: 'X' })).rejects.toBeInstanceOf(AuthError);
  });

  it('given a 404 (attachment for an unknown invoice), then a non-retryable RejectedError with the service message', async () => {
    const err = await ctx.acme
      .addInvoiceAttachment({ invoiceNumber: 'NOPE-1', attachmentUrl: 'https://files.example/x.pdf' })
      .catch((e) => e);
    expect(err).toBeInstanceOf(RejectedError);
    expect(err.status).toBe(404);
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(/NOPE-1/);
  });

  describe('bad input is refused before it is sent, with the field named', () => {
    it.each([
      [
        'missing invoiceId',
        () => {
          const { invoiceId: _x, ...rest } = invoice(9);
          return rest;
        },
        'invoice.invoiceId',
      ],
      [
        'a wrong enumeration value',
        () => ({ ...invoice(9), invoiceOriginSource: 'EXTERNAL_SYSTEM_Z' }),
        'invoice.invoiceOriginSource',
      ],
      ['a string where a number belongs', () => ({ ...invoice(9), invoiceTotal: '1180' }), 'invoice.invoiceTotal'],
    ])('given %s, then DataContractError naming %s and no request', async (_name, make, field) => {
      const before = await journalLength();
      const err = await ctx.acme.upsertInvoice(make() as never).catch((e) => e);
      expect(err).toBeInstanceOf(DataContractError);
      expect(err.retryable).toBe(false);
      expect(err.message).toContain(field.replace(/^invoice\./, 'invoice.'));
      expect((await journalLength()) - before).toBe(0);
    });

    it('given a negative page size, then DataContractError naming pageSize', async () => {
      const err = await ctx.acme.listInvoices({ pageSize: -1 }).catch((e) => e);
      expect(err).toBeInstanceOf(DataContractError);
      expect(err.message).toContain('pageSize');
    });
  });

  describe('the service refuses the same bad input with 400 and names the field (raw requests past the client)', () => {
    const post = (body: unknown) =>
      fetch(`${ctx.emulator.url}/external/invoice/upsert`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-signature': KEYS.acme },
        body: JSON.stringify(body),
      });
    it.each([
      [
        'missing invoiceId',
        () => {
          const { invoiceId: _x, ...rest } = invoice(9);
          return { invoice: rest };
        },
        'invoiceId',
      ],
      [
        'a wrong enumeration value',
        () => ({ invoice: { ...invoice(9), invoiceOriginSource: 'EXTERNAL_SYSTEM_Z' } }),
        'invoiceOriginSource',
      ],
      ['a string where a number belongs', () => ({ invoice: { ...invoice(9), invoiceTotal: '1180' } }), 'invoiceTotal'],
    ])('given %s, then 400 naming %s', async (_n, make, field) => {
      const res = await post(make());
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: string; message: string };
      expect(body.message).toContain(field);
    });
    it('given a negative page size, then 400 naming pageSize', async () => {
      const res = await fetch(`${ctx.emulator.url}/external/invoices?pageSize=-5`, {
        headers: { 'x-service-signature': KEYS.acme },
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain('pageSize');
    });
  });
});
