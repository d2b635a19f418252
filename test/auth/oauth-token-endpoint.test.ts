import { afterEach, describe, expect, it } from 'vitest';
import * as qboAuth from '../../connectors/quickbooks/auth.js';
import { authorization as qboFlow } from '../../connectors/quickbooks/authorize.js';
import { Settings as QboSettings } from '../../connectors/quickbooks/settings.js';
import * as xeroAuth from '../../connectors/xero/auth.js';
import { authorization as xeroFlow } from '../../connectors/xero/authorize.js';
import { Settings as XeroSettings } from '../../connectors/xero/settings.js';
import * as zohoAuth from '../../connectors/zoho-books/auth.js';
import { authorization as zohoFlow } from '../../connectors/zoho-books/authorize.js';
import { Settings as ZohoSettings } from '../../connectors/zoho-books/settings.js';
import type { FaultInjector } from '../../sandbox/kit/faults.js';
import type { Journal } from '../../sandbox/kit/journal.js';
import { QBO_SANDBOX_DEFAULTS, startQuickBooksEmulator } from '../../sandbox/quickbooks/index.js';
import { startXeroEmulator, XERO_SANDBOX_DEFAULTS } from '../../sandbox/xero/index.js';
import { startZohoEmulator, ZOHO_SANDBOX_DEFAULTS } from '../../sandbox/zoho-books/index.js';
import type { AuthorizationFlow } from '../../src/auth/authorization-flow.js';
import { basicClientAuth, formEncode, tokenRetryPolicy } from '../../src/auth/oauth-token-endpoint.js';
import { pkceChallenge } from '../../src/auth/pkce.js';
import type { RefreshFn } from '../../src/auth/token-store.js';
import { TransientError } from '../../src/errors/index.js';

/** A client secret every character class of which form-encoding changes: '+', ':', '%', a space, '/' and '='. */
const SECRET = 'se+cr:et%2F 50/=x';
const REDIRECT = 'http://127.0.0.1:9/callback';
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';

/** One vendor's sandbox, started with `SECRET` as its client secret, and the connector's token calls. */
interface Vendor {
  rotates: boolean;
  tokenPath: string;
  refreshToken: string;
  refresh: RefreshFn;
  flow: AuthorizationFlow;
  settings: unknown;
  faults: FaultInjector;
  journal: Journal;
  close(): Promise<void>;
}

/** What the tests drive on a running sandbox. */
const controls = (emu: Pick<Vendor, 'faults' | 'journal' | 'close'>) => ({
  faults: emu.faults,
  journal: emu.journal,
  close: () => emu.close(),
});

const VENDORS: Record<string, (timeoutMs?: number) => Promise<Vendor>> = {
  async quickbooks(timeoutMs) {
    const emu = await startQuickBooksEmulator({ records: 1, customers: 1, creditMemos: 0, clientSecret: SECRET });
    const settings = QboSettings.parse({
      ...QBO_SANDBOX_DEFAULTS,
      clientSecret: SECRET,
      realmId: emu.realmId,
      baseUrl: emu.url,
      tokenUrl: `${emu.url}/oauth2/v1/tokens/bearer`,
      authorizeUrl: `${emu.url}/connect/oauth2`,
      timeoutMs,
    });
    return {
      rotates: true,
      tokenPath: '/oauth2/v1/tokens/bearer',
      refreshToken: QBO_SANDBOX_DEFAULTS.refreshToken,
      refresh: qboAuth.refreshFn({ settings }),
      flow: qboFlow,
      settings,
      ...controls(emu),
    };
  },
  async xero(timeoutMs) {
    const emu = await startXeroEmulator({ records: 1, contacts: 1, creditNotes: 0, clientSecret: SECRET });
    const d = XERO_SANDBOX_DEFAULTS;
    const settings = XeroSettings.parse({
      clientId: d.clientId,
      clientSecret: SECRET,
      refreshToken: d.refreshToken,
      tenantId: emu.tenantIds[0],
      baseUrl: emu.apiBase,
      timeoutMs,
    });
    return {
      rotates: true,
      tokenPath: '/connect/token',
      refreshToken: d.refreshToken,
      refresh: xeroAuth.refreshFn({ settings }),
      flow: xeroFlow,
      settings,
      ...controls(emu),
    };
  },
  async 'zoho-books'(timeoutMs) {
    const emu = await startZohoEmulator({
      records: 1,
      customers: 1,
      creditNotes: 0,
      clientSecret: SECRET,
      ratePerMinute: 0,
      dailyLimit: 0,
    });
    const d = ZOHO_SANDBOX_DEFAULTS;
    const settings = ZohoSettings.parse({
      organizationId: emu.organizationId,
      clientId: d.clientId,
      clientSecret: SECRET,
      baseUrl: emu.apiBase,
      timeoutMs,
    });
    return {
      rotates: false,
      tokenPath: '/oauth/v2/token',
      refreshToken: d.refreshToken,
      refresh: zohoAuth.refreshFn({ settings, backoff: { minTimeoutMs: 1, maxTimeoutMs: 1 } }),
      flow: zohoFlow,
      settings,
      ...controls(emu),
    };
  },
};

/** Consents on the sandbox's authorize page as a person would (first organisation) and returns the callback's parameters. */
async function consent(flow: AuthorizationFlow, settings: unknown): Promise<URLSearchParams> {
  const url = flow.authorizeUrl(settings, {
    redirectUri: REDIRECT,
    state: 'st',
    ...(flow.pkce ? { codeChallenge: pkceChallenge(VERIFIER) } : {}),
  });
  const page = await (await fetch(url)).text();
  const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
  const request = /name="request" value="([^"]+)"/.exec(page)?.[1];
  const organisation = /name="organisation" value="([^"]+)"/.exec(page)?.[1];
  expect({ action, request }, page).toEqual({ action: expect.any(String), request: expect.any(String) });
  const form = new URLSearchParams({ request: request!, decision: 'allow', ...(organisation ? { organisation } : {}) });
  const res = await fetch(new URL(action!, url), { method: 'POST', body: form, redirect: 'manual' });
  return new URL(res.headers.get('location')!).searchParams;
}

describe('client credentials as RFC 6749 §2.3.1 asks', () => {
  it("given a value with '+', ':', '%' and a space, then it is written form-encoded (space as '+'), and HTTP Basic base64-encodes the encoded pair", () => {
    expect(formEncode('a+b:c%d e/f=g')).toBe('a%2Bb%3Ac%25d+e%2Ff%3Dg');
    expect(formEncode('plain-id_1.x')).toBe('plain-id_1.x');
    expect(basicClientAuth('id:1', 'p w')).toBe(`Basic ${Buffer.from('id%3A1:p+w').toString('base64')}`);
  });
});

describe('the retry rule of a token call', () => {
  it('given a code exchange, then it is never retried; given a refresh, then it is retried only when the vendor does not rotate refresh tokens', () => {
    expect(tokenRetryPolicy('authorization_code', { rotatesRefreshToken: false }).retries).toBe(0);
    expect(tokenRetryPolicy('authorization_code', { rotatesRefreshToken: true }).retries).toBe(0);
    expect(tokenRetryPolicy('refresh_token', { rotatesRefreshToken: true }).retries).toBe(0);
    expect(tokenRetryPolicy('refresh_token', { rotatesRefreshToken: false })).toMatchObject({
      retries: 2,
      maxRetryTimeMs: 10_000,
    });
  });
});

describe.each(Object.keys(VENDORS))("the %s connector's token calls against its sandbox", (system) => {
  let vendor: Vendor | undefined;
  afterEach(async () => {
    await vendor?.close();
    vendor = undefined;
  });

  it(`given a client secret holding '+', ':', '%' and a space, when the connector refreshes and exchanges a code, then the sandbox (decoding per RFC 6749) accepts both`, async () => {
    vendor = await VENDORS[system]!();
    await expect(vendor.refresh(vendor.refreshToken)).resolves.toMatchObject({ accessToken: expect.any(String) });
    const callback = await consent(vendor.flow, vendor.settings);
    const code = callback.get('code');
    expect(code, callback.toString()).toBeTruthy();
    const grant = await vendor.flow.exchange(vendor.settings, {
      code: code!,
      redirectUri: REDIRECT,
      codeVerifier: vendor.flow.pkce ? VERIFIER : undefined,
      callback,
    });
    expect(grant).toMatchObject({ accessToken: expect.any(String), refreshToken: expect.any(String) });
  });

  it('given the token endpoint answers 503 once, when the connector refreshes, then a vendor that rotates refresh tokens tries once and fails (TransientError), and one that does not retries and succeeds', async () => {
    vendor = await VENDORS[system]!();
    vendor.faults.set({ errorNext: 1, errorStatus: 503 });
    const outcome = await vendor.refresh(vendor.refreshToken).catch((e: unknown) => e);
    const calls = vendor.journal.list({ path: vendor.tokenPath });
    if (vendor.rotates) {
      expect(outcome).toBeInstanceOf(TransientError);
      expect(calls.map((c) => c.status)).toEqual([503]);
    } else {
      expect(outcome).toMatchObject({ accessToken: expect.any(String) });
      expect(calls.map((c) => c.status)).toEqual([503, 200]);
    }
  });

  it('given timeoutMs 1000 and a token endpoint that answers only after 5 s, when the connector refreshes, then each attempt gives up at the timeout with a TransientError (the token endpoint honours the one timeout setting)', async () => {
    vendor = await VENDORS[system]!(1_000);
    vendor.faults.set({ latencyMs: 5_000 });
    const started = performance.now();
    const outcome = await vendor.refresh(vendor.refreshToken).catch((e: unknown) => e);
    const attempts = vendor.rotates ? 1 : 3;
    expect(outcome).toBeInstanceOf(TransientError);
    expect((outcome as Error).message).toMatch(/network error/);
    // Each attempt ends at its 1 s timeout, well before the 5 s answer (backoffs here are 1 ms).
    expect(performance.now() - started).toBeLessThan(attempts * 1_000 + 2_000);
  }, 20_000);
});
