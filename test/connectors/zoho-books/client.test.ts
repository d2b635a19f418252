import { afterEach, describe, expect, it } from 'vitest';
import {
  accountsBaseUrl,
  apiBaseUrl,
  parseZohoSettings,
  rateBudgetFor,
  zohoBooksConnector,
  zohoErrorTable,
  zohoTokenErrorTable,
} from '../../../connectors/zoho-books/index.js';
import { zohoRefreshFn } from '../../../connectors/zoho-books/auth.js';
import { readZohoQuota } from '../../../connectors/zoho-books/rate-limit.js';
import { quotaObserver } from '../../../src/http/vendor-client.js';
import { ZOHO_SANDBOX_DEFAULTS } from '../../../sandbox/zoho-books/index.js';
import { VendorClient } from '../../../src/http/vendor-client.js';
import { AuthError, ConfigError, RateLimitedError, RejectedError, TransientError } from '../../../src/errors/index.js';
import type { ErrorContext } from '../../../src/http/vendor-client.js';
import { type Harness, startHarness } from './harness.js';
import { invoicesStream } from '../../../connectors/zoho-books/index.js';

const ctx = (status: number, body: unknown, headers: ErrorContext['headers'] = {}): ErrorContext => ({
  status,
  body,
  text: JSON.stringify(body ?? ''),
  headers,
  operation: 'GET /invoices',
});

describe('zohoErrorTable', () => {
  it.each([
    ['200 code 0', 200, { code: 0, message: 'success' }, {}, undefined],
    ['201 code 0', 201, { code: 0, message: 'Successfully created.' }, {}, undefined],
    ['401 code 57', 401, { code: 57, message: 'You are not authorized to perform this operation' }, {}, AuthError],
    ['200 with code 57', 200, { code: 57, message: 'You are not authorized' }, {}, AuthError],
    ['403', 403, { code: 1, message: 'scope' }, {}, AuthError],
    ['404 code 1002', 404, { code: 1002, message: 'Invoice does not exist.' }, {}, RejectedError],
    ['400 code 2', 400, { code: 2, message: 'Invalid value passed for sort_column' }, {}, RejectedError],
    ['400 code 6041', 400, { code: 6041, message: 'This user is not associated with the CompanyID/CompanyName:1.' }, {}, ConfigError],
    ['500 code 1000', 500, { code: 1000, message: 'Internal error' }, {}, TransientError],
    ['503 without body', 503, undefined, {}, TransientError],
    ['200 with an unknown non-zero code', 200, { code: 9999, message: 'odd' }, {}, RejectedError],
  ] as const)('given %s, then the class is right', (_label, status, body, headers, cls) => {
    const error = zohoErrorTable(ctx(status, body, headers));
    if (cls === undefined) expect(error).toBeUndefined();
    else expect(error).toBeInstanceOf(cls);
  });

  it('given a per-minute 429 with X-Rate-Limit-Reset, then RateLimitedError scope minute waits exactly the reset', () => {
    const e = zohoErrorTable(
      ctx(429, { code: 44, message: 'exceeded the maximum number of requests per minute' }, { 'x-rate-limit-reset': '17', 'x-rate-limit-remaining': '0' }),
    );
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e).toMatchObject({ scope: 'minute', retryAfterMs: 17_000, status: 429 });
  });

  it('given a 429 without any reset header, then it backs off for the per-minute window (60 s)', () => {
    expect(zohoErrorTable(ctx(429, { code: 44, message: 'too many' }))).toMatchObject({ scope: 'minute', retryAfterMs: 60_000 });
  });

  it('given the daily limit 429 (code 45), then RateLimitedError scope day until the reset, so the pipeline parks rather than retries', () => {
    const e = zohoErrorTable(
      ctx(
        429,
        { code: 45, message: 'The API call for this organization has exceeded the maximum call rate limit of 1000.' },
        { 'x-rate-limit-reset': '50400' },
      ),
    );
    expect(e).toMatchObject({ name: 'RateLimitedError', scope: 'day', retryAfterMs: 50_400_000 });
  });

  it("given an error body, then the message keeps Zoho's code and text and names the operation", () => {
    expect(zohoErrorTable(ctx(404, { code: 1002, message: 'Invoice does not exist.' }))?.message).toBe(
      'zoho-books GET /invoices → 404 code 1002: Invoice does not exist.',
    );
  });
});

describe('zohoTokenErrorTable', () => {
  it.each([
    ['200 + invalid_code', 200, { error: 'invalid_code' }, AuthError],
    ['200 + invalid_client', 200, { error: 'invalid_client' }, AuthError],
    [
      '400 Access Denied (too many refreshes)',
      400,
      { error: 'Access Denied', error_description: 'You have made too many requests continuously.' },
      TransientError,
    ],
    ['502', 502, undefined, TransientError],
    ['200 with a token', 200, { access_token: 'x', expires_in: 3600 }, undefined],
  ] as const)('given %s, then the class is right', (_l, status, body, cls) => {
    const error = zohoTokenErrorTable(ctx(status, body));
    if (cls === undefined) expect(error).toBeUndefined();
    else expect(error).toBeInstanceOf(cls);
  });
});

describe('rate-limit headers', () => {
  const observe = () => {
    const quotas: Array<[string, number]> = [];
    const parks: number[] = [];
    const fn = quotaObserver({
      vendor: 'zoho-books',
      readQuota: readZohoQuota,
      onQuota: (w, n) => void quotas.push([w, n]),
      park: async (u) => void parks.push(u),
      now: () => 1_000_000,
    });
    return { fn, quotas, parks };
  };

  it('given remaining > 0, then the day quota is reported and nothing is parked', () => {
    const o = observe();
    o.fn({ 'x-rate-limit-limit': '1000', 'x-rate-limit-remaining': '412', 'x-rate-limit-reset': '3600' });
    expect(o.quotas).toEqual([['day', 412]]);
    expect(o.parks).toEqual([]);
  });

  it('given remaining 0 with a reset beyond a minute, then the day is spent: report 0 and park until the reset', () => {
    const o = observe();
    o.fn({ 'x-rate-limit-limit': '1000', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': '7200' });
    expect(o.quotas).toEqual([['day', 0]]);
    expect(o.parks).toEqual([1_000_000 + 7_200_000]);
  });

  it('given remaining 0 with a reset within a minute (a per-minute 429), then only the minute is reported and nothing is parked', () => {
    const o = observe();
    o.fn({ 'x-rate-limit-limit': '100', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': '42' });
    expect(o.quotas).toEqual([['minute', 0]]);
    expect(o.parks).toEqual([]);
  });

  it('given no headers or a limit of 0 (limits off), then nothing happens', () => {
    const o = observe();
    o.fn({});
    o.fn({ 'x-rate-limit-limit': '0', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': '9000' });
    expect(o.quotas).toEqual([]);
    expect(o.parks).toEqual([]);
  });
});

describe('settings and the connector definition', () => {
  const base = { organizationId: '60012345678', clientId: 'c', clientSecret: 's', refreshToken: 'r' };

  it.each([
    ['com', 'https://www.zohoapis.com/books/v3', 'https://accounts.zoho.com'],
    ['in', 'https://www.zohoapis.in/books/v3', 'https://accounts.zoho.in'],
    ['eu', 'https://www.zohoapis.eu/books/v3', 'https://accounts.zoho.eu'],
    ['com.au', 'https://www.zohoapis.com.au/books/v3', 'https://accounts.zoho.com.au'],
    ['jp', 'https://www.zohoapis.jp/books/v3', 'https://accounts.zoho.jp'],
    ['ca', 'https://www.zohoapis.ca/books/v3', 'https://accounts.zohocloud.ca'],
    ['com.cn', 'https://www.zohoapis.com.cn/books/v3', 'https://accounts.zoho.com.cn'],
    ['sa', 'https://www.zohoapis.sa/books/v3', 'https://accounts.zoho.sa'],
  ] as const)("given dataCenter %s, then the API and accounts hosts are that data centre's", (dataCenter, api, accounts) => {
    const s = parseZohoSettings({ ...base, dataCenter });
    expect(apiBaseUrl(s)).toBe(api);
    expect(accountsBaseUrl(s)).toBe(accounts);
  });

  it('given a sandbox baseUrl (origin only or full), then /books/v3 is the API path and accounts default to the same origin', () => {
    expect(apiBaseUrl(parseZohoSettings({ ...base, baseUrl: 'http://127.0.0.1:4010' }))).toBe('http://127.0.0.1:4010/books/v3');
    expect(apiBaseUrl(parseZohoSettings({ ...base, baseUrl: 'http://127.0.0.1:4010/books/v3/' }))).toBe('http://127.0.0.1:4010/books/v3');
    expect(accountsBaseUrl(parseZohoSettings({ ...base, baseUrl: 'http://127.0.0.1:4010/books/v3' }))).toBe('http://127.0.0.1:4010');
    expect(accountsBaseUrl(parseZohoSettings({ ...base, baseUrl: 'http://a:1', accountsUrl: 'http://b:2/' }))).toBe('http://b:2');
  });

  it('given YAML that wrote the organization id as a number, then it becomes the id string; a typo key or a missing secret is a ConfigError naming the field', () => {
    expect(parseZohoSettings({ ...base, organizationId: 60012345678 }).organizationId).toBe('60012345678');
    expect(() => parseZohoSettings({ ...base, organisationId: '1' })).toThrow(ConfigError);
    expect(() => parseZohoSettings({ organizationId: '1', clientId: 'c', clientSecret: 's' })).toThrow(/settings\.refreshToken/);
  });

  it('given the connector, then it has the three streams, unsorted, with state that round-trips, and a 90/min, 5-concurrent budget whose daily cap comes from settings', () => {
    const c = zohoBooksConnector;
    expect(c.id).toBe('zoho-books');
    expect(Object.keys(c.streams).sort()).toEqual(['credit-notes', 'customers', 'invoices']);
    for (const s of Object.values(c.streams)) {
      expect(s.isSorted).toBe(false);
      expect(s.cursorField).toBe('last_modified_time');
      expect(s.state.parse(s.initialState('2025-01-01T00:00:00.000Z'))).toEqual({ cursor: '2025-01-01T00:00:00.000Z' });
      expect(s.initialState()).toEqual({ cursor: null });
      expect(typeof s.listIds).toBe('function');
    }
    expect([c.streams.invoices.supportsWindow, c.streams['credit-notes'].supportsWindow, c.streams.customers.supportsWindow]).toEqual([true, true, false]);
    expect(c.rateBudget).toEqual({ perMinute: 90, perDay: 1000, concurrency: 5 });
    expect(rateBudgetFor({ ...base, dailyCallLimit: 5000 })).toEqual({ perMinute: 90, perDay: 5000, concurrency: 5 });
  });
});

describe('auth against the emulator', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('given wrong client credentials, then the read fails with an AuthError that asks for re-authorisation (and carries no secret)', async () => {
    h = await startHarness({ records: 3 });
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
    h = await startHarness({ records: 3 });
    const client = h.client();
    await client.request({ path: 'contacts', endpoint: 'GET /contacts', schema: (await import('zod')).z.unknown() });
    h.emulator.tokens.expireAll();
    await client.request({ path: 'contacts', endpoint: 'GET /contacts', schema: (await import('zod')).z.unknown() });
    expect(h.emulator.stats().refreshCount).toBe(2);
  });

  it('given a token whose api_domain is another data centre than settings.dataCenter, then the refresh fails with an AuthError naming the host to configure', async () => {
    h = await startHarness({ records: 1 });
    // The emulator plays Zoho Accounts; its api_domain is its own URL, not https://www.zohoapis.in.
    const accounts = new VendorClient({ vendor: 'zoho-accounts', prefixUrl: h.emulator.url, errorTable: zohoTokenErrorTable });
    const settings = parseZohoSettings({ ...h.settings(), baseUrl: undefined, accountsUrl: h.emulator.url, dataCenter: 'in' });
    const refresh = zohoRefreshFn({ settings, accounts });
    const error = await refresh(ZOHO_SANDBOX_DEFAULTS.refreshToken).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as Error).message).toContain(`this account's API host is ${h.emulator.url}, but dataCenter "in" points at https://www.zohoapis.in`);
    // With baseUrl set (sandbox, proxy) the check is off and the token comes back.
    const sandbox = zohoRefreshFn({ settings: parseZohoSettings(h.settings()), accounts });
    await expect(sandbox(ZOHO_SANDBOX_DEFAULTS.refreshToken)).resolves.toMatchObject({ expiresInSeconds: 3600 });
  });
});
