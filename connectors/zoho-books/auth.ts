import type { Logger } from 'pino';
import type { RefreshFn, TokenStore } from '../../src/auth/token-store.js';
import { tokenStoreAuth } from '../../src/auth/token-store-auth.js';
import { AuthError } from '../../src/errors/index.js';
import type { AuthProvider, VendorClient } from '../../src/http/vendor-client.js';
import { ZohoTokenResponse } from './schemas.js';
import { apiBaseUrl, type Settings } from './settings.js';

/**
 * Zoho OAuth: `POST {accounts}/oauth/v2/token` with grant_type=refresh_token; 1-hour access tokens; the
 * refresh token never rotates (https://www.zoho.com/pdfeditor/help/api/oauth-step4.html). Tokens live
 * in the shared TokenStore (Redis), so every worker of a connection uses the same access token and only
 * one of them refreshes at a time — Zoho allows only ~10 refreshes per 10 minutes per refresh token, so
 * uncoordinated workers would lock themselves out
 * (https://zoho.com/accounts/protocol/oauth/web-apps/access-token-expiry.html).
 *
 * `api_domain`: Zoho says which API host serves the account. The client's host is fixed by
 * `dataCenter` (or `baseUrl`), so a token whose api_domain names another data centre means the
 * connection is misconfigured: that is an AuthError telling the operator which `dataCenter` to set,
 * rather than a stream of 401s from the wrong host. With `baseUrl` set (sandbox, proxy) the check is off.
 */
export interface AuthOptions {
  connectionId: string;
  settings: Settings;
  tokens: TokenStore;
  /** A client for the accounts server (no quotas: token calls do not count against the Books API). */
  accounts: VendorClient;
  logger?: Logger;
}

export function refreshFn(options: Pick<AuthOptions, 'settings' | 'accounts' | 'logger'>): RefreshFn {
  const { settings, accounts } = options;
  const expectedApi = new URL(apiBaseUrl(settings)).origin;
  return async (refreshToken, signal) => {
    // https://www.zoho.com/pdfeditor/help/api/oauth-step4.html
    const r = await accounts.request({
      method: 'POST',
      path: 'oauth/v2/token',
      endpoint: 'POST /oauth/v2/token',
      form: { grant_type: 'refresh_token', client_id: settings.clientId, client_secret: settings.clientSecret, refresh_token: refreshToken },
      anonymous: true,
      schema: ZohoTokenResponse,
      signal,
    });
    if (!settings.baseUrl && r.api_domain) {
      let domain: string | undefined;
      try {
        domain = new URL(r.api_domain).origin;
      } catch {
        domain = undefined;
      }
      if (domain && domain !== expectedApi) {
        throw new AuthError(
          `zoho-books: this account's API host is ${domain}, but dataCenter "${settings.dataCenter}" points at ${expectedApi}; set dataCenter to match the organisation's data centre`,
          { source: 'zoho-accounts', operation: 'POST /oauth/v2/token' },
        );
      }
    }
    options.logger?.info({ expiresInSeconds: r.expires_in }, 'zoho-books access token refreshed');
    return { accessToken: r.access_token, expiresInSeconds: r.expires_in };
  };
}

export function createAuth(options: AuthOptions): AuthProvider {
  const { connectionId, settings, tokens } = options;
  return tokenStoreAuth({ tokens, key: connectionId, refreshToken: settings.refreshToken, refresh: refreshFn(options), scheme: 'Zoho-oauthtoken' });
}
