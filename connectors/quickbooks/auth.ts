import type { RefreshFn, TokenStore } from '../../src/auth/token-store.js';
import { tokenStoreAuth } from '../../src/auth/token-store-auth.js';
import { oauthTokenEndpoint, type TokenEndpoint } from '../../src/auth/oauth-token-endpoint.js';
import type { AuthProvider, ResponseObserver } from '../../src/http/vendor-client.js';
import { tokenErrorTableFor } from './error-table.js';
import { QboTokenResponse } from './schemas.js';
import type { Settings } from './settings.js';

/**
 * Intuit OAuth 2.0: `POST /oauth2/v1/tokens/bearer` with HTTP Basic client auth and the form body
 * `grant_type=refresh_token&refresh_token=…`. Access tokens last one hour; the answer usually carries a
 * NEW refresh token and the previous one stops working
 * (https://developer.intuit.com/app/developer/qbo/docs/develop/authentication-and-authorization/faq,
 * https://blogs.intuit.com/2024/06/03/oauth-token-management-done-the-right-way/). Tokens live in the
 * shared TokenStore (Redis), which writes the rotated refresh token atomically under its lock, so two
 * workers never spend the same one. Every API call sends `Authorization: Bearer <token>`. Because the token
 * rotates, a refresh is one attempt: one whose answer was lost may already have rotated the token.
 */
export interface AuthOptions {
  connectionId: string;
  settings: Settings;
  tokens: TokenStore;
  /** Observes the token endpoint's answers (metrics); token calls take no quota slot. */
  onResponse?: ResponseObserver;
}

/** Intuit's token endpoint: HTTP Basic client auth; refresh tokens rotate, so a refresh is never retried in-process. */
export function tokenEndpointOf(
  settings: Pick<Settings, 'tokenUrl' | 'clientId' | 'clientSecret' | 'throttleWaitMs' | 'timeoutMs'>,
  options: { onResponse?: ResponseObserver } = {},
): TokenEndpoint {
  return oauthTokenEndpoint({
    vendor: 'quickbooks',
    url: settings.tokenUrl,
    endpoint: 'POST /oauth2/v1/tokens/bearer',
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    clientAuth: 'basic',
    rotatesRefreshToken: true,
    errorTable: tokenErrorTableFor({ throttleWaitMs: settings.throttleWaitMs }),
    timeoutMs: settings.timeoutMs,
    onResponse: options.onResponse,
  });
}

export function refreshFn(options: Pick<AuthOptions, 'settings' | 'onResponse'>): RefreshFn {
  const post = tokenEndpointOf(options.settings, options);
  return async (refreshToken, signal) => {
    // https://developer.intuit.com/app/developer/qbo/docs/develop/authentication-and-authorization/faq
    const r = await post({ grant_type: 'refresh_token', refresh_token: refreshToken }, QboTokenResponse, signal);
    return { accessToken: r.access_token, expiresInSeconds: r.expires_in, refreshToken: r.refresh_token };
  };
}

export function createAuth(options: AuthOptions): AuthProvider {
  const { connectionId, settings, tokens } = options;
  return tokenStoreAuth({
    tokens,
    key: connectionId,
    refreshToken: settings.refreshToken,
    refresh: refreshFn(options),
    scheme: 'Bearer',
  });
}
