import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { customersStream } from '../../../connectors/zoho-books/streams/customers.js';
import { invoicesStream } from '../../../connectors/zoho-books/streams/invoices.js';
import { AuthError } from '../../../src/errors/index.js';
import { type ZohoClients, readAll, shortMinutes, startZohoClients } from './harness.js';

describe('the client against the emulator: auth', () => {
  let h: ZohoClients | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('given wrong client credentials, then the read fails with an AuthError that asks for re-authorisation (and carries no secret)', async () => {
    h = await startZohoClients({ records: 3 });
    const client = h.client({}, { clientSecret: 'wrong-secret' });
    const error = await invoicesStream
      .read(h.context(client), invoicesStream.initialState())
      [Symbol.asyncIterator]()
      .next()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(String((error as Error).message)).toMatch(/invalid_client_secret.*re-authorise/);
    expect(String((error as Error).message)).not.toContain('wrong-secret');
  });

  it('given an access token the emulator no longer accepts, then the client refreshes once and the call succeeds', async () => {
    h = await startZohoClients({ records: 3 });
    const client = h.client();
    await client.request({ path: 'contacts', endpoint: 'GET /contacts', schema: z.unknown() });
    h.emulator.tokens.expireAll();
    await client.request({ path: 'contacts', endpoint: 'GET /contacts', schema: z.unknown() });
    expect(h.emulator.stats().refreshCount).toBe(2);
  });
});

describe('the client against the emulator: quotas and tokens', () => {
  let h: ZohoClients | undefined;
  afterAll(() => h?.close());

  it('given a per-minute limit lower than the read needs, when invoices are read, then each 429 is waited out (X-Rate-Limit-Reset) and the read completes', async () => {
    h = await startZohoClients({ records: 14, customers: 6, creditNotes: 2, ratePerMinute: 6 });
    const e = h.emulator;
    const client = h.client({ onResponse: shortMinutes(e) }, { detailConcurrency: 2 });
    const started = Date.now();
    const { records } = await readAll(invoicesStream, h.context(client), invoicesStream.initialState());
    expect(records.map((r) => r.id).sort()).toEqual(
      e.store
        .invoices()
        .map((i) => i.invoice_id)
        .sort(),
    );
    const refused = e.stats().rateLimited.minute;
    expect(refused).toBeGreaterThan(0);
    // Honoured, not hammered: at most one refusal per call in flight per window.
    expect(refused).toBeLessThanOrEqual(2 * Math.ceil(e.stats().requestCount / 6));
    expect(Date.now() - started).toBeGreaterThan(1000);
  }, 60_000);

  it('given the daily cap is reached, when a read runs, then the connection is parked until the reset, the read fails with ParkedError (cause: RateLimitedError scope day) and the quota is reported', async () => {
    await h?.close();
    h = await startZohoClients({ records: 10, dailyLimit: 4, clock: { now: '2026-02-01T04:30:00Z', frozen: true } });
    const parks: number[] = [];
    const quotas: Array<[string, number]> = [];
    const client = h.client({
      park: async (until) => void parks.push(until),
      onQuota: (w, n) => void quotas.push([w, n]),
    });
    const error = await readAll(invoicesStream, h.context(client), invoicesStream.initialState()).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'ParkedError' });
    expect((error as Error).cause).toMatchObject({ name: 'RateLimitedError', scope: 'day', retryAfterMs: 50_400_000 });
    // The list call sees 3 left; the concurrent detail calls' answers may arrive in any order.
    expect(quotas[0]).toEqual(['day', 3]);
    expect(quotas).toEqual(
      expect.arrayContaining([
        ['day', 2],
        ['day', 1],
        ['day', 0],
      ]),
    );
    expect(parks.length).toBeGreaterThan(0);
    expect(parks[0]! - Date.now()).toBeGreaterThan(50_000_000);
  });

  it('given two readers that need a token at the same moment, then Zoho sees exactly one refresh; after the tokens expire, exactly one more', async () => {
    await h?.close();
    h = await startZohoClients({ records: 6 });
    const a = h.client();
    const b = h.client();
    await Promise.all([
      readAll(customersStream, h.context(a), customersStream.initialState()),
      readAll(invoicesStream, h.context(b), invoicesStream.initialState()),
    ]);
    expect(h.emulator.stats().refreshCount).toBe(1);
    h.emulator.tokens.expireAll();
    await Promise.all([
      readAll(customersStream, h.context(a), customersStream.initialState()),
      readAll(invoicesStream, h.context(b), invoicesStream.initialState()),
    ]);
    expect(h.emulator.stats().refreshCount).toBe(2);
  });
});
