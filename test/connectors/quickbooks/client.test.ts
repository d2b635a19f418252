import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { connector } from '../../../connectors/quickbooks/connector.js';
import { invoicesStream } from '../../../connectors/quickbooks/streams/invoices.js';
import { TokenStore } from '../../../src/auth/token-store.js';
import { AuthError, ParkedError, RateLimitedError, RejectedError, TransientError } from '../../../src/errors/index.js';
import { stateKeys } from '../../../src/pipeline/keys.js';
import { Quotas } from '../../../src/pipeline/quotas.js';
import { connect } from '../../support/redis.js';
import { type QuickBooksClients, startQuickBooksClients, readAll } from './harness.js';

const count = {
  path: 'query',
  endpoint: 'GET /query Invoice',
  query: { query: 'SELECT count(*) FROM Invoice' },
  schema: z.any(),
};

describe('QuickBooks client against the sandbox', () => {
  let h: QuickBooksClients | undefined;
  const redisClients: Array<ReturnType<typeof connect>> = [];
  afterEach(async () => {
    for (const r of redisClients.splice(0)) r.disconnect();
    await h?.close();
    h = undefined;
  });

  it('given 429 ThrottleExceeded answers during a read, then the client waits and the read completes', async () => {
    h = await startQuickBooksClients({ records: 300 }, { throttleWaitMs: 150, pageSize: 100 });
    h.emu.faults.set({ rateLimitNext: 3 });
    const { records } = await readAll(invoicesStream, h.ctx(), invoicesStream.initialState());
    expect(records.filter((r) => !r.deleted)).toHaveLength(h.emu.store.docs.Invoice.size);
    expect(h.emu.journal.list().filter((e) => e.status === 429)).toHaveLength(3);
    // Every API call named the realm in its path and sent minorversion=75.
    expect(h.emu.stats().minorVersions).toEqual({ '75': h.emu.stats().requests });
    expect(
      h.emu.journal
        .list()
        .filter((e) => e.path.startsWith('/v3/'))
        .every((e) => e.path.startsWith(`/v3/company/${h!.emu.realmId}/`)),
    ).toBe(true);
  });

  it("given Intuit's 60 s throttle wait, then the realm is parked for every worker and ParkedError (cause: RateLimitedError 60 s) goes up for the pipeline to delay", async () => {
    const parks: number[] = [];
    h = await startQuickBooksClients({ records: 5 });
    const http = h.client({ options: { park: async (until) => void parks.push(until) } });
    await http.request(count); // the token refresh first, so the throttle hits the API call
    h.emu.faults.set({ rateLimitNext: 1 });
    const started = Date.now();
    const err = await http.request(count).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParkedError);
    expect((err as ParkedError).cause).toBeInstanceOf(RateLimitedError);
    expect((err as ParkedError).cause).toMatchObject({ retryAfterMs: 60_000, scope: 'minute', status: 429 });
    expect(parks).toHaveLength(1);
    expect(parks[0]! - started).toBeGreaterThanOrEqual(59_000);
  });

  it('given the rate budget through the shared quota (Redis), then 30 concurrent calls never exceed 10 in flight and none is throttled', async () => {
    h = await startQuickBooksClients({ records: 5, latencyMs: 40 });
    const redis = connect();
    redisClients.push(redis);
    const quotas = new Quotas(redis, stateKeys(h.prefix));
    const http = h.client({
      options: { acquire: (signal) => quotas.acquire(h!.connectionId, connector.rateBudget, { signal }) },
    });
    await http.request(count); // token first
    await Promise.all(Array.from({ length: 30 }, () => http.request(count)));
    expect(h.emu.stats().throttled).toEqual({ minute: 0, inFlight: 0 });
    expect(h.emu.stats().maxInFlightSeen).toBeLessThanOrEqual(10);
  });

  it('given two workers (two TokenStores on one Redis) needing a token at the same moment, then exactly one refresh, the rotated refresh token is persisted, and an access token refused later is refreshed once more', async () => {
    h = await startQuickBooksClients({ records: 5 });
    const [ra, rb, rc] = [connect(), connect(), connect()];
    redisClients.push(ra, rb, rc);
    const a = h.client({ tokens: new TokenStore(ra, { prefix: h.prefix }) });
    const b = h.client({ tokens: new TokenStore(rb, { prefix: h.prefix }) });
    await Promise.all([
      ...Array.from({ length: 5 }, () => a.request(count)),
      ...Array.from({ length: 5 }, () => b.request(count)),
    ]);
    expect(h.emu.tokens.refreshCount).toBe(1);
    const key = `${h.prefix}:token:${h.connectionId}`;
    expect(await ra.hget(key, 'refreshToken')).toBe(h.emu.tokens.currentRefreshToken);
    expect(h.emu.tokens.currentRefreshToken).not.toBe('qbo-sandbox-refresh-token');

    h.emu.tokens.expireAll(); // Intuit refuses the token before our clock says it expired
    await Promise.all([a.request(count), b.request(count), a.request(count), b.request(count)]);
    expect(h.emu.tokens.refreshCount).toBe(2);
    expect(h.emu.tokens.rejected).toBe(0); // nobody spent a stale refresh token
    expect(await ra.hget(key, 'refreshToken')).toBe(h.emu.tokens.currentRefreshToken);

    // A third process whose config still holds the original (now spent) token uses Redis's rotated one.
    const c = h.client({ tokens: new TokenStore(rc, { prefix: h.prefix }) });
    await c.request(count);
    expect(h.emu.tokens.rejected).toBe(0);
  });

  it('given vendor errors, then each is classified: unsupported query field → Rejected, 610 → Rejected, lowercase 401 after the forced refresh → Auth, 5xx → Transient, spent refresh token → Auth', async () => {
    h = await startQuickBooksClients({ records: 5 });
    const bad = await h.http
      .request({ ...count, query: { query: "SELECT * FROM Invoice WHERE Colour = 'red'" } })
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(RejectedError);
    expect((bad as Error).message).toMatch(/code 4001.*not queryable.*intuit_tid/);
    const missing = await h.http
      .request({ path: 'invoice/999999', endpoint: 'GET /invoice/{id}', schema: z.any() })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(RejectedError);
    expect((missing as Error).message).toMatch(/code 610/);

    h.emu.faults.set({ errorNext: 10, errorStatus: 503 });
    expect(await h.http.request(count).catch((e: unknown) => e)).toBeInstanceOf(TransientError);
    h.emu.faults.set({});

    const spent = new TokenStore(connect(), { prefix: `${h.prefix}-spent` });
    redisClients.push((spent as unknown as { redis: ReturnType<typeof connect> }).redis);
    const stale = h.client({ tokens: spent });
    const refused = await stale.request(count).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AuthError);
    expect((refused as Error).message).toMatch(/invalid_grant/);
    expect((refused as Error).message).not.toMatch(/qbo-rt-|qbo-sandbox-refresh-token/);
  });

  it('given foreign invoices without a rate or at exactly 1, then the read maps none of them at 1:1: FX_UNDERIVABLE / FX_SUSPECT, and every mapped foreign invoice carries its real rate', async () => {
    h = await startQuickBooksClients({ records: 120 });
    const overseas = [...h.emu.store.customers.values()].find((c) => c.currency === 'USD' && c.active)!;
    const noRate = h.emu.store.createInvoice({ customerId: overseas.id, exchangeRate: null });
    const atOne = h.emu.store.createInvoice({ customerId: overseas.id, exchangeRate: '1' });
    const ctx = h.ctx();
    const lookups = await invoicesStream.lookups!(ctx);
    const mapCtx = {
      connectionId: h.connectionId,
      originSource: 'EXTERNAL_SYSTEM_B' as const,
      baseCurrency: 'INR',
      lookups,
    };
    const { records } = await readAll(invoicesStream, ctx, invoicesStream.initialState());
    const reasons = new Map<string, string>();
    let foreignMapped = 0;
    for (const r of records.filter((x) => !x.deleted)) {
      const m = invoicesStream.map(r, mapCtx);
      if (!m.ok) {
        reasons.set(r.id, m.reason);
        continue;
      }
      if (m.value.kind === 'invoice' && m.value.invoice.invoiceCurrency !== 'INR') {
        foreignMapped++;
        expect(m.value.invoice.exchangeRate).toBeGreaterThan(1);
      }
    }
    expect(foreignMapped).toBeGreaterThan(0);
    expect(Object.fromEntries(reasons)).toEqual({ [noRate.id]: 'FX_UNDERIVABLE', [atOne.id]: 'FX_SUSPECT' });
  });
});
