import { afterEach, describe, expect, it } from 'vitest';
import {
  startZohoEmulator,
  ZOHO_SANDBOX_DEFAULTS,
  type ZohoEmulator,
  type ZohoEmulatorOptions,
} from '../../../sandbox/zoho-books/index.js';
import { accessToken, admin, booksGet, requestToken } from './zoho-test-client.js';

let emu: ZohoEmulator | undefined;
async function start(options: ZohoEmulatorOptions = {}): Promise<ZohoEmulator> {
  emu = await startZohoEmulator({
    records: 30,
    customers: 10,
    creditNotes: 5,
    clock: { now: '2026-02-01T04:30:00Z', frozen: true },
    ...options,
  });
  return emu;
}
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

const NOT_AUTHORIZED = { code: 57, message: 'You are not authorized to perform this operation' };

describe('Zoho emulator organization_id', () => {
  it('given no organization_id, when invoices are listed, then 400 {code:2, "Invalid value passed for organization_id"}', async () => {
    const e = await start();
    const r = await booksGet(e, await accessToken(e), '/invoices', { organization_id: null });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ code: 2, message: 'Invalid value passed for organization_id' });
  });

  it('given an organization_id the user does not belong to, when invoices are listed, then 400 code 6041', async () => {
    const e = await start();
    const r = await booksGet(e, await accessToken(e), '/invoices', { organization_id: '60099999999' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      code: 6041,
      message: 'This user is not associated with the CompanyID/CompanyName:60099999999.',
    });
  });

  it('given the organization id in the X-com-zoho-books-organizationid header instead, when invoices are listed, then 200', async () => {
    const e = await start();
    const r = await booksGet(
      e,
      await accessToken(e),
      '/invoices',
      { organization_id: null },
      { 'X-com-zoho-books-organizationid': e.organizationId },
    );
    expect(r.status).toBe(200);
  });

  it('given a custom organizationId option, when /organizations is read, then it reports that id', async () => {
    const e = await start({ organizationId: '60000000042' });
    const r = await booksGet(e, await accessToken(e), '/organizations', { organization_id: null });
    expect((r.body.organizations as Record<string, unknown>[])[0]?.organization_id).toBe('60000000042');
  });
});

describe('Zoho emulator auth', () => {
  it('given no token, an unknown token or the Bearer scheme, when invoices are listed, then 401 code 57', async () => {
    const e = await start();
    const good = await accessToken(e);
    expect(await booksGet(e, undefined, '/invoices')).toMatchObject({ status: 401, body: NOT_AUTHORIZED });
    expect(await booksGet(e, '1000.nope.nope', '/invoices')).toMatchObject({ status: 401, body: NOT_AUTHORIZED });
    const bearer = await booksGet(e, undefined, '/invoices', {}, { authorization: `Bearer ${good}` });
    expect(bearer).toMatchObject({ status: 401, body: NOT_AUTHORIZED });
    expect(bearer.headers.get('x-rate-limit-limit')).toBe('10000');
  });

  it('given the sandbox credentials, when the token endpoint is called form-encoded, then it returns a 1-hour Bearer access token, api_domain = the emulator, no new refresh token, and counts one refresh', async () => {
    const e = await start();
    const r = await requestToken(e);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ expires_in: 3600, token_type: 'Bearer', api_domain: e.url });
    expect(String(r.body.access_token)).toMatch(/^1000\.[0-9a-f]{32}\.[0-9a-f]{32}$/);
    expect(r.body).not.toHaveProperty('refresh_token');
    expect(e.stats().refreshCount).toBe(1);
    expect((await booksGet(e, String(r.body.access_token), '/invoices')).status).toBe(200);
    expect((await admin(e, 'GET', 'stats')).body).toMatchObject({ refreshCount: 1 });
  });

  it('given the parameters in the query string instead of a form body, when the token endpoint is called, then it works too', async () => {
    const e = await start();
    const q = new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: ZOHO_SANDBOX_DEFAULTS.clientId,
      client_secret: ZOHO_SANDBOX_DEFAULTS.clientSecret,
      refresh_token: ZOHO_SANDBOX_DEFAULTS.refreshToken,
    });
    const r = await fetch(`${e.tokenUrl}?${q.toString()}`, { method: 'POST' });
    expect(r.status).toBe(200);
    expect(await r.json()).toHaveProperty('access_token');
  });

  it('given wrong credentials, when the token endpoint is called, then HTTP 200 with a Zoho {error} body and no refresh is counted', async () => {
    const e = await start();
    expect((await requestToken(e, { client_secret: 'wrong' })).body).toEqual({ error: 'invalid_client_secret' });
    expect((await requestToken(e, { client_id: 'wrong' })).body).toEqual({ error: 'invalid_client' });
    const bad = await requestToken(e, { refresh_token: '1000.revoked' });
    expect(bad.status).toBe(200);
    expect(bad.body).toEqual({ error: 'invalid_code' });
    expect(e.stats()).toMatchObject({ refreshCount: 0, refreshAttempts: 3 });
  });

  it('given a token and a frozen clock, when the clock passes accessTokenTtlSeconds, then the token is refused with 401 and one refresh restores access', async () => {
    const e = await start({ accessTokenTtlSeconds: 120 });
    const token = await accessToken(e);
    await admin(e, 'POST', 'clock', { advanceSeconds: 119 });
    expect((await booksGet(e, token, '/invoices')).status).toBe(200);
    await admin(e, 'POST', 'clock', { advanceSeconds: 1 });
    expect(await booksGet(e, token, '/invoices')).toMatchObject({ status: 401, body: NOT_AUTHORIZED });
    const fresh = await accessToken(e);
    expect(fresh).not.toBe(token);
    expect((await booksGet(e, fresh, '/invoices')).status).toBe(200);
    expect(e.stats().refreshCount).toBe(2);
  });

  it('given live tokens, when POST /__admin/expire-tokens, then every token is refused until the client refreshes', async () => {
    const e = await start();
    const token = await accessToken(e);
    expect((await admin(e, 'POST', 'expire-tokens')).body).toEqual({ expired: 1 });
    expect((await booksGet(e, token, '/invoices')).status).toBe(401);
    expect((await booksGet(e, await accessToken(e), '/invoices')).status).toBe(200);
  });

  it('given more than 10 refreshes within 10 minutes, when the 11th is asked, then 400 "Access Denied" until the window passes', async () => {
    const e = await start();
    for (let i = 0; i < 10; i++) expect((await requestToken(e)).status).toBe(200);
    const denied = await requestToken(e);
    expect(denied.status).toBe(400);
    expect(denied.body).toMatchObject({ error: 'Access Denied' });
    await admin(e, 'POST', 'clock', { advanceSeconds: 601 });
    expect((await requestToken(e)).status).toBe(200);
    expect(e.stats().refreshCount).toBe(11);
  });

  it('given the admin token shortcut, when used, then the token works and is not counted as a refresh', async () => {
    const e = await start();
    const r = await admin(e, 'POST', 'tokens', { ttlSeconds: 60 });
    expect((await booksGet(e, String(r.body.access_token), '/invoices')).status).toBe(200);
    expect(e.stats().refreshCount).toBe(0);
    const creds = await admin(e, 'GET', 'credentials');
    expect(creds.body).toMatchObject({
      client_id: ZOHO_SANDBOX_DEFAULTS.clientId,
      organization_id: '60012345678',
      token_url: e.tokenUrl,
      api_base: e.apiBase,
    });
  });
});
