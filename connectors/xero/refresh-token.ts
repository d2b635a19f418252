import type { RefreshFn } from '../../src/auth/token-store.js';
import { VendorClient } from '../../src/http/vendor-client.js';
import { xeroErrorTable } from './error-table.js';
import { XeroTokenResponse } from './schemas.js';
import { XERO_TOKEN_URL, type XeroSettings } from './settings.js';

/**
 * The refresh call the TokenStore runs under its lock (one refresh at a time per connection, across
 * processes; the rotated refresh token is written atomically with the access token).
 * https://developer.xero.com/documentation/guides/oauth2/auth-flow/#refreshing-access-tokens
 * POST /connect/token, form `grant_type=refresh_token&refresh_token=…`, client credentials as HTTP Basic.
 * Xero answers a NEW refresh token every time and the old one is spent (reference §3.1, trap 16).
 *
 * Never retried in-process: a refresh whose answer was lost may already have spent the token, and a
 * blind retry would only turn that into invalid_grant. The job's own retry starts over from the token store.
 */
export function createXeroRefresh(settings: XeroSettings): RefreshFn {
  const url = new URL(tokenUrlOf(settings));
  const cut = url.pathname.lastIndexOf('/');
  // got wants a prefix plus a relative path; split the token URL at its last segment.
  const client = new VendorClient({
    vendor: 'xero',
    prefixUrl: `${url.origin}${url.pathname.slice(0, cut)}`,
    errorTable: xeroErrorTable,
    retry: { retries: 0 },
  });
  const path = url.pathname.slice(cut + 1);
  const basic = Buffer.from(`${encodeURIComponent(settings.clientId)}:${encodeURIComponent(settings.clientSecret)}`).toString('base64');
  return async (refreshToken, signal) => {
    const r = await client.request({
      method: 'POST',
      path,
      endpoint: 'POST /connect/token',
      form: { grant_type: 'refresh_token', refresh_token: refreshToken },
      headers: { authorization: `Basic ${basic}` },
      schema: XeroTokenResponse,
      anonymous: true,
      signal,
    });
    return { accessToken: r.access_token, expiresInSeconds: r.expires_in, refreshToken: r.refresh_token };
  };
}

/**
 * The token endpoint: `tokenUrl`, else — when `baseUrl` points elsewhere (the sandbox serves the API and
 * the token endpoint on one origin) — `<baseUrl origin>/connect/token`, else identity.xero.com.
 */
export function tokenUrlOf(settings: XeroSettings): string {
  if (settings.tokenUrl) return settings.tokenUrl;
  if (settings.baseUrl) return new URL('/connect/token', settings.baseUrl).toString();
  return XERO_TOKEN_URL;
}
