import type { RefreshFn, TokenStore } from '../../src/auth/token-store.js';
import { tokenStoreAuth } from '../../src/auth/token-store-auth.js';
import type { AuthProvider, VendorClient } from '../../src/http/vendor-client.js';
import { QboTokenResponse } from './schemas.js';
import type { Settings } from './settings.js';

/**
 * Intuit OAuth 2.0: `POST /oauth2/v1/tokens/bearer` with HTTP Basic client auth and the form body
 * `grant_type=refresh_token&refresh_token=…`. Access tokens last one hour; the answer usually carries a
 * NEW refresh token and the previous one stops working
 * (https://developer.intuit.com/app/developer/qbo/docs/develop/authentication-and-authorization/faq,
 * https://blogs.intuit.com/2024/06/03/oauth-token-management-done-the-right-way/). Tokens live in the
 * shared TokenStore (Redis), which writes the rotated refresh token atomically under its lock, so two
 * workers never spend the same one. Every API call sends `Authorization: Bearer <token>`.
 */
export interface AuthOptions {
  connectionId: string;
  settings: Settings;
  tokens: TokenStore;
  /** A client for the token endpoint (no quotas: token calls do not count against the realm's). */
  accounts: VendorClient;
}

export function refreshFn(options: Pick<AuthOptions, 'settings' | 'accounts'>): RefreshFn {
  const { settings, accounts } = options;
  const path = new URL(settings.tokenUrl).pathname.replace(/^\/+/, '');
  const basic = Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString('base64');
  return async (refreshToken, signal) => {
    // https://developer.intuit.com/app/developer/qbo/docs/develop/authentication-and-authorization/faq
    const r = await accounts.request({
      method: 'POST',
      path,
      endpoint: 'POST /oauth2/v1/tokens/bearer',
      headers: { authorization: `Basic ${basic}` },
      form: { grant_type: 'refresh_token', refresh_token: refreshToken },
      schema: QboTokenResponse,
      anonymous: true,
      signal,
    });
    return { accessToken: r.access_token, expiresInSeconds: r.expires_in, refreshToken: r.refresh_token };
  };
}

export function createAuth(options: AuthOptions): AuthProvider {
  const { connectionId, settings, tokens } = options;
  return tokenStoreAuth({ tokens, key: connectionId, refreshToken: settings.refreshToken, refresh: refreshFn(options), scheme: 'Bearer' });
}
