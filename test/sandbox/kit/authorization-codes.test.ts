import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  QBO_SANDBOX_DEFAULTS,
  type RunningQuickBooksEmulator,
  startQuickBooksEmulator,
} from '../../../sandbox/quickbooks/index.js';
import {
  AUSTRALIA_TENANT_ID,
  INDIA_TENANT_ID,
  startXeroEmulator,
  XERO_SANDBOX_DEFAULTS,
  type XeroEmulator,
} from '../../../sandbox/xero/index.js';
import { startZohoEmulator, ZOHO_SANDBOX_DEFAULTS, type ZohoEmulator } from '../../../sandbox/zoho-books/index.js';
import { pkceChallenge } from '../../../src/auth/pkce.js';

/**
 * The authorization-code grant of the ERP sandboxes over real HTTP: the consent page, the redirect back,
 * and the checks of the code exchange (single-use, short-lived codes, the authorize request's
 * redirect_uri, PKCE), each in its vendor's error shape.
 */
const REDIRECT = 'http://127.0.0.1:45678/callback';
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** GET the authorize page; returns its status, HTML and the Location header (never followed). */
async function authorizePage(url: string): Promise<{ status: number; html: string; location: string | null }> {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, html: await res.text(), location: res.headers.get('location') };
}

/** Submits the consent form of `html` as a browser would; returns where it redirects. */
async function decide(
  origin: string,
  html: string,
  decision: 'allow' | 'deny',
  organisations?: string[],
): Promise<URL> {
  const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
  const form = new URLSearchParams({ request: /name="request" value="([^"]+)"/.exec(html)![1]! });
  const ticked = organisations ?? [...html.matchAll(/name="organisation" value="([^"]+)" checked/g)].map((m) => m[1]!);
  for (const o of ticked) form.append('organisation', o);
  form.set('decision', decision);
  const res = await fetch(`${origin}${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

async function post(
  url: string,
  form: Record<string, string>,
  authorization?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization ? { authorization } : {}) },
    body: new URLSearchParams(form),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('Xero sandbox: authorization code with PKCE', () => {
  let xero: XeroEmulator;
  const d = XERO_SANDBOX_DEFAULTS;
  const verifier = 'a-verifier-of-enough-length-0123456789-abcdefghijkl';
  const authorizeUrl = (redirect = REDIRECT, extra: Record<string, string> = {}) =>
    `${xero.url}/identity/connect/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: d.clientId,
      redirect_uri: redirect,
      scope: 'offline_access accounting.transactions.read',
      state: 'st-1',
      code_challenge: pkceChallenge(verifier),
      code_challenge_method: 'S256',
      ...extra,
    })}`;
  const exchange = (code: string, over: Record<string, string> = {}) =>
    post(
      `${xero.url}/connect/token`,
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, ...over },
      basic(d.clientId, d.clientSecret),
    );
  const codeFor = async (organisations?: string[]) => {
    const page = await authorizePage(authorizeUrl());
    const back = await decide(xero.url, page.html, 'allow', organisations);
    return back.searchParams.get('code')!;
  };

  beforeAll(async () => {
    xero = await startXeroEmulator({
      port: 0,
      seed: 3,
      records: 3,
      contacts: 3,
      creditNotes: 0,
      redirectUris: ['https://app.example.com/xero/callback'],
    });
  });
  afterAll(async () => {
    await xero?.close();
  });

  it('given a consent, then the page lists both organisations, Allow redirects with code and state, and the code exchanges once', async () => {
    const page = await authorizePage(authorizeUrl());
    expect(page.status).toBe(200);
    expect(page.html).toContain(INDIA_TENANT_ID);
    expect(page.html).toContain(AUSTRALIA_TENANT_ID);
    const back = await decide(xero.url, page.html, 'allow');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('st-1');
    const code = back.searchParams.get('code')!;
    const first = await exchange(code);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'Bearer', expires_in: 1800 });
    expect(first.body.refresh_token).toEqual(expect.any(String));

    // The same code again: invalid_grant (RFC 6749 §4.1.2: single use).
    expect(await exchange(code)).toEqual({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('given a wrong code_verifier, or none, then the exchange answers invalid_grant', async () => {
    expect(
      await exchange(await codeFor(), { code_verifier: 'another-verifier-of-enough-length-0123456789-xyz' }),
    ).toEqual({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    const noVerifier = await post(
      `${xero.url}/connect/token`,
      { grant_type: 'authorization_code', code: await codeFor(), redirect_uri: REDIRECT },
      basic(d.clientId, d.clientSecret),
    );
    expect(noVerifier).toEqual({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('given a redirect_uri other than the authorize request’s, or an expired code, then the exchange answers invalid_grant', async () => {
    expect(await exchange(await codeFor(), { redirect_uri: 'http://127.0.0.1:45679/callback' })).toEqual({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    const code = await codeFor();
    // "The code is only valid for 5 minutes."
    xero.clock.set({ advanceMs: 5 * 60_000 + 1 });
    expect(await exchange(code)).toEqual({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('given a redirect URI neither loopback nor registered, then the page shows the error and does not redirect; a registered one is accepted', async () => {
    const bad = await authorizePage(authorizeUrl('https://evil.example.com/steal'));
    expect(bad.status).toBe(400);
    expect(bad.location).toBeNull();
    expect(bad.html).toContain('Invalid redirect_uri');
    expect((await authorizePage(authorizeUrl('https://app.example.com/xero/callback'))).status).toBe(200);
  });

  it('given Deny, then the browser goes back with error=access_denied and the state', async () => {
    const page = await authorizePage(authorizeUrl());
    const back = await decide(xero.url, page.html, 'deny');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st-1');
    expect(back.searchParams.has('code')).toBe(false);
  });

  it('given one organisation ticked, then /connections lists that tenant only and the other is refused; the previous refresh token is refused', async () => {
    const before = xero.tokens.liveRefreshTokens[0]!;
    const r = await exchange(await codeFor([AUSTRALIA_TENANT_ID]));
    const token = r.body.access_token as string;
    const res = await fetch(`${xero.url}/connections`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await res.json()) as Array<{ tenantId: string }>).map((t) => t.tenantId)).toEqual([AUSTRALIA_TENANT_ID]);
    const api = (tenant: string) =>
      fetch(`${xero.url}/api.xro/2.0/Organisation`, {
        headers: { authorization: `Bearer ${token}`, 'xero-tenant-id': tenant, accept: 'application/json' },
      });
    expect((await api(AUSTRALIA_TENANT_ID)).status).toBe(200);
    expect((await api(INDIA_TENANT_ID)).status).toBe(403);
    expect(
      await post(
        `${xero.url}/connect/token`,
        { grant_type: 'refresh_token', refresh_token: before },
        basic(d.clientId, d.clientSecret),
      ),
    ).toEqual({
      status: 400,
      body: { error: 'invalid_grant' },
    });
  });

  it('given a revoked grant, then its refresh token answers invalid_grant', async () => {
    const r = await exchange(await codeFor());
    xero.tokens.revoke();
    const refresh = await post(
      `${xero.url}/connect/token`,
      { grant_type: 'refresh_token', refresh_token: r.body.refresh_token as string },
      basic(d.clientId, d.clientSecret),
    );
    expect(refresh).toEqual({ status: 400, body: { error: 'invalid_grant' } });
  });
});

describe('QuickBooks sandbox: authorization code', () => {
  let qbo: RunningQuickBooksEmulator;
  const d = QBO_SANDBOX_DEFAULTS;
  const authorizeUrl = (extra: Record<string, string> = {}) =>
    `${qbo.url}/connect/oauth2?${new URLSearchParams({
      client_id: d.clientId,
      response_type: 'code',
      scope: 'com.intuit.quickbooks.accounting',
      redirect_uri: REDIRECT,
      state: 'st-q',
      ...extra,
    })}`;
  const exchange = (code: string, over: Record<string, string> = {}) =>
    post(
      `${qbo.url}/oauth2/v1/tokens/bearer`,
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, ...over },
      basic(d.clientId, d.clientSecret),
    );

  beforeAll(async () => {
    qbo = await startQuickBooksEmulator({ port: 0, seed: 3, records: 3, customers: 3, creditMemos: 0 });
  });
  afterAll(async () => {
    await qbo?.close();
  });

  it('given Allow, then the redirect carries code, state and realmId; the code exchanges once, then invalid_grant', async () => {
    const page = await authorizePage(authorizeUrl());
    const back = await decide(qbo.url, page.html, 'allow');
    expect(back.searchParams.get('realmId')).toBe(qbo.realmId);
    expect(back.searchParams.get('state')).toBe('st-q');
    const code = back.searchParams.get('code')!;
    const first = await exchange(code);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'bearer', expires_in: 3600, x_refresh_token_expires_in: 8_726_400 });
    expect(await exchange(code)).toEqual({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('given wrong client credentials, then invalid_client (401); given a PKCE challenge, which Intuit does not document, then the redirect says invalid_request', async () => {
    const page = await authorizePage(authorizeUrl());
    const code = (await decide(qbo.url, page.html, 'allow')).searchParams.get('code')!;
    const wrong = await post(
      `${qbo.url}/oauth2/v1/tokens/bearer`,
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
      basic(d.clientId, 'nope'),
    );
    expect(wrong).toEqual({ status: 401, body: { error: 'invalid_client' } });
    const pkce = await authorizePage(
      authorizeUrl({ code_challenge: pkceChallenge('v'.repeat(43)), code_challenge_method: 'S256' }),
    );
    expect(pkce.status).toBe(302);
    expect(new URL(pkce.location!).searchParams.get('error')).toBe('invalid_request');
  });

  it('given a redirect URI not registered, then Intuit’s error page, no redirect', async () => {
    const bad = await authorizePage(authorizeUrl({ redirect_uri: 'https://evil.example.com/cb' }));
    expect(bad.status).toBe(400);
    expect(bad.location).toBeNull();
    expect(bad.html).toContain('The redirect_uri query parameter value is invalid');
  });
});

describe('Zoho Books sandbox: authorization code', () => {
  let zoho: ZohoEmulator;
  const d = ZOHO_SANDBOX_DEFAULTS;
  const authorizeUrl = () =>
    `${zoho.url}/oauth/v2/auth?${new URLSearchParams({
      scope: 'ZohoBooks.invoices.READ',
      client_id: d.clientId,
      response_type: 'code',
      redirect_uri: REDIRECT,
      access_type: 'offline',
      prompt: 'consent',
      state: 'st-z',
    })}`;
  const exchange = (code: string) =>
    post(`${zoho.url}/oauth/v2/token`, {
      grant_type: 'authorization_code',
      client_id: d.clientId,
      client_secret: d.clientSecret,
      redirect_uri: REDIRECT,
      code,
    });

  beforeAll(async () => {
    zoho = await startZohoEmulator({ port: 0, seed: 3, records: 3, customers: 3, creditNotes: 0 });
  });
  afterAll(async () => {
    await zoho?.close();
  });

  it('given Allow, then the redirect carries code, state and the data centre; a reused code answers 200 {"error":"invalid_code"} as Zoho does', async () => {
    const page = await authorizePage(authorizeUrl());
    expect(page.html).toContain(zoho.organizationId);
    const back = await decide(zoho.url, page.html, 'allow');
    expect(back.searchParams.get('state')).toBe('st-z');
    expect(back.searchParams.get('location')).toBe('in');
    expect(back.searchParams.get('accounts-server')).toBe(zoho.url);
    const code = back.searchParams.get('code')!;
    const first = await exchange(code);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, api_domain: zoho.url });
    // The user's earlier refresh token stays live beside the new one.
    expect(zoho.tokens.liveRefreshTokens).toEqual([d.refreshToken, first.body.refresh_token]);
    expect(await exchange(code)).toEqual({ status: 200, body: { error: 'invalid_code' } });
  });
});
