import { z } from 'zod';
import type { AuthorizationFlow, GrantTokens } from '../../src/auth/authorization-flow.js';
import { VendorClient } from '../../src/http/vendor-client.js';
import { tokenEndpointOf } from './auth.js';
import { errorTable } from './error-table.js';
import { XeroConnections, XeroTokenResponse } from './schemas.js';
import { authorizeUrl, connectionsUrl, Settings, tokenUrl } from './settings.js';

/**
 * Xero's authorization-code flow (https://developer.xero.com/documentation/guides/oauth2/auth-flow/):
 * - `GET https://login.xero.com/identity/connect/authorize?response_type=code&client_id=…&redirect_uri=…&scope=…&state=…`
 *   with `offline_access` (for a refresh token) and the read scopes the streams use — the granular ones
 *   (https://developer.xero.com/faq/granular-scopes: the only ones for apps created from 2 March 2026;
 *   `settings.scopes` overrides them); the person picks the organisations to connect on Xero's page;
 * - PKCE S256 (`code_challenge`, `code_challenge_method=S256`; the verifier goes with the exchange:
 *   https://developer.xero.com/documentation/guides/oauth2/pkce-flow/);
 * - `POST https://identity.xero.com/connect/token`, HTTP Basic client auth, form
 *   grant_type=authorization_code&code=…&redirect_uri=…&code_verifier=… ; the code lives 5 minutes;
 *   errors `{"error":"invalid_grant"}` (https://developer.xero.com/documentation/guides/oauth2/troubleshooting/);
 * - `GET https://api.xero.com/connections` lists the tenants the grant reaches: one grant may reach
 *   several, and the connection names one (`tenantId`) — never "the first".
 */
export const XERO_SCOPES = [
  'offline_access',
  'accounting.invoices.read',
  'accounting.contacts.read',
  'accounting.settings.read',
] as const;

const ConnectSettings = Settings.partial({ tenantId: true });
type ConnectSettings = z.output<typeof ConnectSettings>;

const CodeResponse = XeroTokenResponse.extend({ refresh_token: z.string().min(1) });

/** A client for one absolute URL: got wants a prefix and a relative path, so the URL is split at its last segment. */
function clientFor(
  url: URL,
  options: Omit<ConstructorParameters<typeof VendorClient>[0], 'vendor' | 'prefixUrl'>,
): { client: VendorClient; path: string } {
  const cut = url.pathname.lastIndexOf('/');
  return {
    client: new VendorClient({ vendor: 'xero', prefixUrl: `${url.origin}${url.pathname.slice(0, cut)}`, ...options }),
    path: url.pathname.slice(cut + 1),
  };
}

export const authorization: AuthorizationFlow<ConnectSettings> = {
  settings: ConnectSettings,
  pkce: true,
  organisationSetting: 'tenantId',
  configuredOrganisation: (s) => s.tenantId,

  authorizeUrl(settings, request) {
    // https://developer.xero.com/documentation/guides/oauth2/auth-flow/#1-send-a-user-to-authorize-your-app
    const url = new URL(authorizeUrl(settings));
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: settings.clientId,
      redirect_uri: request.redirectUri,
      scope: settings.scopes ?? XERO_SCOPES.join(' '),
      state: request.state,
      ...(request.codeChallenge ? { code_challenge: request.codeChallenge, code_challenge_method: 'S256' } : {}),
    }).toString();
    return url.toString();
  },

  async exchange(settings, exchange, signal): Promise<GrantTokens> {
    // https://developer.xero.com/documentation/guides/oauth2/auth-flow/#3-exchange-the-code
    const grant = {
      grant_type: 'authorization_code',
      code: exchange.code,
      redirect_uri: exchange.redirectUri,
      code_verifier: exchange.codeVerifier,
    } as const;
    const r = await tokenEndpointOf(settings)(grant, CodeResponse, signal);
    return { accessToken: r.access_token, refreshToken: r.refresh_token, expiresInSeconds: r.expires_in };
  },

  async organisations(settings, tokens, _callback, signal) {
    const { client, path } = clientFor(new URL(connectionsUrl(settings)), {
      errorTable,
      retry: { retries: 2, minTimeoutMs: 250, maxTimeoutMs: 2_000 },
      timeoutMs: settings.timeoutMs,
      auth: { token: async () => tokens.accessToken, header: (t) => `Bearer ${t}` },
    });
    // https://developer.xero.com/documentation/guides/oauth2/auth-flow/#5-check-the-tenants-youre-authorized-to-access
    const r = await client.request({
      path,
      endpoint: 'GET /connections',
      headers: { accept: 'application/json' },
      schema: XeroConnections,
      signal,
    });
    return r
      .filter((t) => (t.tenantType ?? 'ORGANISATION') === 'ORGANISATION')
      .map((t) => ({ id: t.tenantId, name: t.tenantName ?? '' }));
  },
};
