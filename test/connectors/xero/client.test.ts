import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connector } from '../../../connectors/xero/connector.js';
import { XeroInvoicesResponse } from '../../../connectors/xero/schemas.js';
import { invoicesStream } from '../../../connectors/xero/streams/invoices.js';
import { TokenStore } from '../../../src/auth/token-store.js';
import { AuthError, ParkedError, RateLimitedError, RejectedError, TransientError } from '../../../src/errors/index.js';
import { mapCtx, readAll, startXeroClients, type XeroClients } from './support.js';

let h: XeroClients;
beforeAll(async () => {
  h = await startXeroClients({ records: 40 });
});
afterAll(async () => h.close());
beforeEach(async () => {
  await h.reset();
});

const conn = (tenant: string) => `xero-${tenant.slice(0, 8)}`;
const accrec = (tenant: string) => h.emu.store.invoices(tenant).filter((i) => i.Type === 'ACCREC').length;
const admin = (path: string, body: unknown) =>
  fetch(`${h.emu.url}/__admin/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((r) => r.json());
const ping = (http: ReturnType<XeroClients['client']>) =>
  http.request({
    path: 'Invoices',
    endpoint: 'GET /Invoices',
    query: { page: 1, pageSize: 1 },
    schema: XeroInvoicesResponse,
  });

describe('Xero client', () => {
  it('given two 429 minute answers with Retry-After 1, then the client waits them out in-process and the read completes', async () => {
    const http = h.client(h.india);
    await ping(http); // token first: injected faults hit every route, the token endpoint too
    h.emu.faults.set({ rateLimitNext: 2, retryAfterSeconds: 1 });
    const started = Date.now();
    const { records } = await readAll(
      invoicesStream,
      h.readCtx(http, h.settings(h.india)),
      invoicesStream.initialState(),
    );
    expect(records.length).toBe(accrec(h.india));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(
      h.emu.journal
        .list({ path: '/api.xro/2.0/Invoices' })
        .map((e) => e.status)
        .slice(0, 4),
    ).toEqual([200, 429, 429, 200]);
  });

  it("given the organisation's own minute limit spent (Retry-After ~60 s), then the connection is parked for the Retry-After and the job gets ParkedError (cause: the minute-scoped RateLimitedError)", async () => {
    let parked = 0;
    const http = h.client(h.india, { park: async () => void parked++ });
    await ping(http);
    h.emu.configure({ ratePerMinute: 2 });
    await ping(http);
    const err = await ping(http).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParkedError);
    const cause = (err as ParkedError).cause;
    expect(cause).toBeInstanceOf(RateLimitedError);
    expect(cause).toMatchObject({ scope: 'minute' });
    expect((cause as RateLimitedError).retryAfterMs).toBeGreaterThan(5_000);
    expect(parked).toBe(1);
  });

  it('given a day-limit 429 on one organisation, then only that connection is parked (the other keeps reading) and its read resumes by itself after the reset', async () => {
    const quota: Array<[string, string, number]> = [];
    const wire = (c: string) => ({
      acquire: (signal?: AbortSignal) => h.quotas.acquire(c, connector.rateBudget, { signal, maxParkWaitMs: 15_000 }),
      park: (untilMs: number) => h.quotas.park(c, untilMs),
      onQuota: (w: 'minute' | 'day', n: number) => void quota.push([c, w, n]),
    });
    const inHttp = h.client(h.india, wire(conn(h.india)));
    const auHttp = h.client(h.australia, wire(conn(h.australia)));
    await admin('day-limit', { tenantId: h.india, used: 5000, resetInSeconds: 3 });

    const started = Date.now();
    const err = await readAll(
      invoicesStream,
      h.readCtx(inHttp, h.settings(h.india)),
      invoicesStream.initialState(),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParkedError);
    expect((err as ParkedError).cause).toBeInstanceOf(RateLimitedError);
    expect((err as ParkedError).cause).toMatchObject({ scope: 'day', retryAfterMs: 3000 });
    const parkedUntil = await h.quotas.parkedUntil(conn(h.india));
    expect(parkedUntil).toBeGreaterThanOrEqual(started + 2500);
    expect(await h.quotas.parkedUntil(conn(h.australia))).toBeUndefined();
    expect(quota).toContainEqual([conn(h.india), 'day', 0]);

    // While India is parked, the Australian connection reads everything.
    const au = await readAll(invoicesStream, h.readCtx(auHttp, h.settings(h.australia)), invoicesStream.initialState());
    expect(au.records.length).toBe(accrec(h.australia));
    expect(Date.now()).toBeLessThan(parkedUntil!);

    // The job's next attempt: its quota slot waits out the park, then the read goes through.
    const resumed = await readAll(
      invoicesStream,
      h.readCtx(inHttp, h.settings(h.india)),
      invoicesStream.initialState(),
    );
    expect(resumed.records.length).toBe(accrec(h.india));
    expect(Date.now()).toBeGreaterThanOrEqual(parkedUntil!);
    const india = h.emu.journal.list().filter((e) => e.key === h.india);
    expect(india.filter((e) => e.status === 429)).toHaveLength(1);
    const firstOk = india.find((e) => e.status === 200)!;
    expect(Date.parse(firstOk.at)).toBeGreaterThanOrEqual(parkedUntil! - 50);
  });

  it('given two worker processes needing a token at the same moment, then Xero sees exactly one refresh, and the rotated refresh token is persisted', async () => {
    const storeA = h.tokens;
    const storeB = new TokenStore(h.redis, { prefix: h.prefix });
    const a = h.client(h.india);
    const b = h.client(h.australia, { tokens: storeB });
    await Promise.all([...Array.from({ length: 5 }, () => ping(a)), ...Array.from({ length: 5 }, () => ping(b))]);
    expect(h.emu.stats().tokens).toMatchObject({ refreshes: 1, invalidGrants: 0 });
    const saved = await h.redis.hget(`${h.prefix}:token:xero-login`, 'refreshToken');
    expect(saved).toBe(h.emu.tokens.liveRefreshTokens[0]);
    expect(saved).not.toBe('xero-sandbox-refresh-token-0');

    // Every access token expires: both processes get 401 at once, one forced refresh rotates again.
    h.emu.tokens.expireAll();
    await Promise.all([...Array.from({ length: 4 }, () => ping(a)), ...Array.from({ length: 4 }, () => ping(b))]);
    expect(h.emu.stats().tokens).toMatchObject({ refreshes: 2, invalidGrants: 0 });
    expect(await h.redis.hget(`${h.prefix}:token:xero-login`, 'refreshToken')).toBe(h.emu.tokens.liveRefreshTokens[0]);
    void storeA;
  });

  it('given only baseUrl (the sandbox), then the token endpoint defaults to its origin and XeroSettings validates the config', async () => {
    const http = h.client(h.india, { settings: { tokenUrl: undefined } });
    await expect(ping(http)).resolves.toMatchObject({ Invoices: expect.any(Array) });
    expect(
      connector.settings.safeParse({
        clientId: 'a',
        clientSecret: 'b',
        refreshToken: 'c',
        tenantId: h.india,
        pageSize: 5000,
      }).success,
    ).toBe(false);
    expect(
      connector.settings.safeParse({ clientId: 'a', clientSecret: 'b', refreshToken: 'c', tenantId: h.india }).success,
    ).toBe(true);
  });

  it('given the config refresh token after Xero rotated it, then the single-use token is refused (invalid_grant) as an AuthError', async () => {
    await ping(h.client(h.india));
    const other = h.client(h.india, { settings: { tokenGroup: 'another-store-entry' } });
    const err = await ping(other).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as Error).message).toContain('invalid_grant');
    expect((err as Error).message).not.toContain('xero-sandbox-refresh-token-0');
  });

  it('given Xero errors, then each is classified: 403 wrong tenant, 404 text, 400 validation and query parse, 503 offline (retried), and every call carries the tenant', async () => {
    const http = h.client(h.india);
    await ping(http);
    expect(
      h.emu.journal
        .list()
        .filter((e) => e.path.startsWith('/api.xro'))
        .every((e) => e.key === h.india),
    ).toBe(true);

    const wrong = h.client('00000000-0000-4000-8000-000000000000');
    await expect(ping(wrong)).rejects.toThrow(AuthError);
    await expect(ping(wrong)).rejects.toThrow(/tenantId/);

    await expect(
      http.request({ path: 'Invoices/no-such-invoice', endpoint: 'GET /Invoices/{id}', schema: XeroInvoicesResponse }),
    ).rejects.toThrow(RejectedError);
    await expect(
      http.request({
        path: 'Invoices',
        endpoint: 'GET /Invoices',
        query: { page: 1, pageSize: 5000 },
        schema: XeroInvoicesResponse,
      }),
    ).rejects.toThrow(/ValidationException: pageSize/);
    await expect(
      http.request({
        path: 'Invoices',
        endpoint: 'GET /Invoices',
        query: { where: 'Type==' },
        schema: XeroInvoicesResponse,
      }),
    ).rejects.toThrow(/QueryParseException/);

    h.emu.faults.set({ errorNext: 3, errorStatus: 503 });
    const offline = await ping(http).catch((e: unknown) => e);
    expect(offline).toBeInstanceOf(TransientError);
    expect((offline as Error).message).toContain('The Organisation is offline');
    expect(h.emu.journal.list({ path: '/api.xro/2.0/Invoices' }).filter((e) => e.status === 503)).toHaveLength(3);
  });

  it('given an access token Xero does not know and a spent refresh token, then 401 forces one refresh, which is refused: AuthError', async () => {
    await h.redis.hset(`${h.prefix}:token:stale-login`, {
      accessToken: 'not-a-token',
      expiresAt: String(Date.now() + 3_600_000),
      refreshToken: 'spent',
    });
    const http = h.client(h.india, { settings: { tokenGroup: 'stale-login' } });
    await expect(ping(http)).rejects.toThrow(/invalid_grant/);
    expect(h.emu.journal.list({ path: '/api.xro/2.0/Invoices' }).map((e) => e.status)).toEqual([401]);
  });

  it('given every invoice of both organisations read and mapped for an INR billing company, then no foreign-currency invoice is sent without a real rate', async () => {
    let foreignSent = 0;
    let underivable = 0;
    for (const tenant of [h.india, h.australia]) {
      const ctx = h.readCtx(h.client(tenant), h.settings(tenant));
      const lookups = await invoicesStream.lookups!(ctx);
      const { records } = await readAll(invoicesStream, ctx, invoicesStream.initialState());
      for (const r of records) {
        const m = invoicesStream.map(r, mapCtx(ctx.connectionId, lookups, 'INR'));
        if (m.ok && m.value.kind === 'invoice' && m.value.invoice.invoiceCurrency !== 'INR') {
          foreignSent++;
          expect(m.value.invoice.exchangeRate).toBeGreaterThan(1);
          expect(tenant).toBe(h.india);
        }
        if (!m.ok) {
          expect(m.reason).toBe('FX_UNDERIVABLE');
          expect(tenant).toBe(h.australia);
          underivable++;
        }
      }
    }
    expect(foreignSent).toBeGreaterThan(0);
    expect(underivable).toBeGreaterThan(0);
  });
});
