import type { Logger } from 'pino';
import type { RefreshFn, TokenStore } from '../../src/auth/token-store.js';
import {
  oauthTokenEndpoint,
  type TokenEndpoint,
  type TokenEndpointOptions,
} from '../../src/auth/oauth-token-endpoint.js';
import { tokenStoreAuth } from '../../src/auth/token-store-auth.js';
import { AuthError } from '../../src/errors/index.js';
import type { AuthProvider } from '../../src/http/vendor-client.js';
import { tokenErrorTable } from './error-table.js';
import { ZohoTokenResponse } from './schemas.js';
import { accountsBaseUrl, apiBaseUrl, type Settings } from './settings.js';

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
  logger?: Logger;
  /** Backoffs of a retried refresh (tests shorten them). */
  backoff?: TokenEndpointOptions['backoff'];
}

/**
 * Zoho's token endpoint on the accounts server: client id and secret as form fields. The refresh token
 * never rotates, so a refresh is retried briefly (the same token stays good); calls take no quota slot
 * (token calls do not count against the Books API).
 */
export function tokenEndpointOf(
  settings: Pick<Settings, 'clientId' | 'clientSecret' | 'timeoutMs' | 'dataCenter' | 'accountsUrl' | 'baseUrl'>,
  options: { backoff?: TokenEndpointOptions['backoff']; accountsUrl?: string } = {},
): TokenEndpoint {
  return oauthTokenEndpoint({
    vendor: 'zoho-accounts',
    url: `${(options.accountsUrl ?? accountsBaseUrl(settings)).replace(/\/+$/, '')}/oauth/v2/token`,
    endpoint: 'POST /oauth/v2/token',
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    clientAuth: 'body',
    rotatesRefreshToken: false,
    errorTable: tokenErrorTable,
    timeoutMs: settings.timeoutMs,
    backoff: options.backoff,
  });
}

/** The token's `api_domain` when it names another API host than the client's (see above). */
function foreignApiDomain(apiDomain: string | undefined, expected: string): string | undefined {
  if (!apiDomain) return undefined;
  let domain: string;
  try {
    domain = new URL(apiDomain).origin;
  } catch {
    return undefined;
  }
  return domain === expected ? undefined : domain;
}

export function refreshFn(options: Pick<AuthOptions, 'settings' | 'logger' | 'backoff'>): RefreshFn {
  const { settings } = options;
  const post = tokenEndpointOf(settings, options);
  const expectedApi = new URL(apiBaseUrl(settings)).origin;
  return async (refreshToken, signal) => {
    // https://www.zoho.com/pdfeditor/help/api/oauth-step4.html
    const r = await post({ grant_type: 'refresh_token', refresh_token: refreshToken }, ZohoTokenResponse, signal);
    const domain = settings.baseUrl ? undefined : foreignApiDomain(r.api_domain, expectedApi);
    if (domain) {
      throw new AuthError(
        `zoho-books: this account's API host is ${domain}, but dataCenter "${settings.dataCenter}" points at ${expectedApi}; set dataCenter to match the organisation's data centre`,
        { source: 'zoho-accounts', operation: 'POST /oauth/v2/token' },
      );
    }
    options.logger?.info({ expiresInSeconds: r.expires_in }, 'zoho-books access token refreshed');
    return { accessToken: r.access_token, expiresInSeconds: r.expires_in };
  };
}

export function createAuth(options: AuthOptions): AuthProvider {
  const { connectionId, settings, tokens } = options;
  return tokenStoreAuth({
    tokens,
    key: connectionId,
    refreshToken: settings.refreshToken,
    refresh: refreshFn(options),
    scheme: 'Zoho-oauthtoken',
  });
}
