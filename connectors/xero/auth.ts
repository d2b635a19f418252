import type { Logger } from 'pino';
import type { RefreshFn, TokenStore } from '../../src/auth/token-store.js';
import { tokenStoreAuth } from '../../src/auth/token-store-auth.js';
import { oauthTokenEndpoint, type TokenEndpoint } from '../../src/auth/oauth-token-endpoint.js';
import type { AuthProvider } from '../../src/http/vendor-client.js';
import { tokenErrorTable } from './error-table.js';
import { XeroTokenResponse } from './schemas.js';
import { type Settings, tokenUrl } from './settings.js';

/**
 * Xero OAuth 2.0: `POST /connect/token`, form `grant_type=refresh_token&refresh_token=…`, client
 * credentials as HTTP Basic (https://developer.xero.com/documentation/guides/oauth2/auth-flow/). Access
 * tokens live 30 minutes; every refresh answers a NEW refresh token and the old one is spent; an unused
 * refresh token expires after 60 days (https://developer.xero.com/faq/oauth2).
 *
 * Tokens live in the shared TokenStore (Redis): one refresh at a time per token key across processes,
 * and the rotated refresh token is written atomically with the access token. The key is the connection,
 * or `settings.tokenGroup` when several connections (organisations) share one Xero authorisation.
 */
export interface AuthOptions {
  connectionId: string;
  settings: Settings;
  tokens: TokenStore;
  logger?: Logger;
}

/**
 * Xero's token endpoint: HTTP Basic client auth. Refresh tokens rotate, so a refresh is never retried
 * in-process: one whose answer was lost may already have rotated the token, so the lock is released and the
 * job's own retry starts over from the token store (Xero accepts the previous refresh token again for a
 * 30-minute grace period in that case: https://developer.xero.com/faq/oauth2; past it, the answer is
 * invalid_grant).
 */
export function tokenEndpointOf(
  settings: Pick<Settings, 'clientId' | 'clientSecret' | 'tokenUrl' | 'baseUrl' | 'timeoutMs'>,
): TokenEndpoint {
  return oauthTokenEndpoint({
    vendor: 'xero',
    url: tokenUrl(settings),
    endpoint: 'POST /connect/token',
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    clientAuth: 'basic',
    rotatesRefreshToken: true,
    errorTable: tokenErrorTable,
    timeoutMs: settings.timeoutMs,
  });
}

/** The refresh call the TokenStore runs under its lock. */
export function refreshFn(options: Pick<AuthOptions, 'settings'>): RefreshFn {
  const post = tokenEndpointOf(options.settings);
  return async (refreshToken, signal) => {
    // https://developer.xero.com/documentation/guides/oauth2/auth-flow/#refreshing-access-tokens
    const r = await post({ grant_type: 'refresh_token', refresh_token: refreshToken }, XeroTokenResponse, signal);
    return { accessToken: r.access_token, expiresInSeconds: r.expires_in, refreshToken: r.refresh_token };
  };
}

/** The TokenStore key: the connection, or the group of connections sharing one Xero authorisation. */
export function tokenKeyFor(connectionId: string, settings: Pick<Settings, 'tokenGroup'>): string {
  return settings.tokenGroup ?? connectionId;
}

export function createAuth(options: AuthOptions): AuthProvider {
  const { settings, tokens } = options;
  const key = tokenKeyFor(options.connectionId, settings);
  return tokenStoreAuth({
    tokens,
    key,
    refreshToken: settings.refreshToken,
    refresh: refreshFn(options),
    scheme: 'Bearer',
  });
}
