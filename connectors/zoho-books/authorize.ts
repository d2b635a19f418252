import { z } from 'zod';
import type { AuthorizationFlow, GrantTokens } from '../../src/auth/authorization-flow.js';
import { VendorClient } from '../../src/http/vendor-client.js';
import { tokenEndpointOf } from './auth.js';
import { errorTable } from './error-table.js';
import { ZohoOrganizationsResponse } from './schemas.js';
import { accountsBaseUrl, apiBaseUrl, DATA_CENTRES, type DataCentre, Settings } from './settings.js';

/**
 * Zoho's authorization-code flow for server-based applications
 * (https://www.zoho.com/accounts/protocol/oauth/web-apps/authorization.html):
 * - `GET {accounts}/oauth/v2/auth?scope=…&client_id=…&response_type=code&redirect_uri=…&access_type=offline&prompt=consent&state=…`
 *   on the accounts server of the data centre; `access_type=offline` asks for a refresh token and
 *   `prompt=consent` asks for it again on a re-consent (without it Zoho answers only an access token).
 *   Scopes are comma-separated; we ask for the read scopes the streams use.
 * - The browser comes back with `code`, `state`, `location` (the user's data centre) and `accounts-server`
 *   (https://www.zoho.com/accounts/protocol/oauth/multi-dc.html); the code lives 2 minutes.
 * - `POST {accounts-server}/oauth/v2/token` with grant_type=authorization_code, client_id, client_secret,
 *   redirect_uri, code (https://www.zoho.com/accounts/protocol/oauth/web-apps/access-token.html); failures
 *   come back as HTTP 200 with `{"error": "invalid_code"}`, so the body decides (error-table.ts).
 * - `GET /books/v3/organizations` lists the organisations the user's token reaches
 *   (https://www.zoho.com/books/api/v3/organizations/#list-organizations).
 * Zoho documents PKCE for mobile and desktop clients only
 * (https://www.zoho.com/accounts/protocol/oauth/mobile-and-desktop-apps/get-authorization-code.html); a
 * server-based client authenticates with its secret, so no challenge is sent.
 */
export const ZOHO_SCOPES = [
  'ZohoBooks.invoices.READ',
  'ZohoBooks.creditnotes.READ',
  'ZohoBooks.contacts.READ',
  'ZohoBooks.settings.READ',
] as const;

/** Zoho's `location` callback parameter → our `dataCenter` setting. */
const LOCATIONS: Record<string, DataCentre> = {
  us: 'com',
  eu: 'eu',
  in: 'in',
  au: 'com.au',
  jp: 'jp',
  ca: 'ca',
  cn: 'com.cn',
  sa: 'sa',
};

const ConnectSettings = Settings.partial({ organizationId: true });
type ConnectSettings = z.output<typeof ConnectSettings>;

const CodeResponse = z.looseObject({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_in: z.number().positive(),
  api_domain: z.string().optional(),
});

/**
 * The accounts server the code must be exchanged at: the one the callback names when it is a Zoho data
 * centre's (the user's account may live in another data centre than the config says), unless the
 * connection overrides the accounts or API host (sandbox, proxy).
 */
function accountsFor(settings: ConnectSettings, callback: URLSearchParams): string {
  if (settings.accountsUrl || settings.baseUrl) return accountsBaseUrl(settings);
  const named = callback.get('accounts-server');
  const known = Object.values(DATA_CENTRES).find((d) => d.accounts === named);
  return known?.accounts ?? accountsBaseUrl(settings);
}

function dataCentreOf(callback: URLSearchParams): DataCentre | undefined {
  const location = callback.get('location');
  return location ? LOCATIONS[location.toLowerCase()] : undefined;
}

export const authorization: AuthorizationFlow<ConnectSettings> = {
  settings: ConnectSettings,
  pkce: false,
  organisationSetting: 'organizationId',
  configuredOrganisation: (s) => s.organizationId,

  authorizeUrl(settings, request) {
    // https://www.zoho.com/accounts/protocol/oauth/web-apps/authorization.html
    const url = new URL(`${accountsBaseUrl(settings)}/oauth/v2/auth`);
    url.search = new URLSearchParams({
      scope: ZOHO_SCOPES.join(','),
      client_id: settings.clientId,
      response_type: 'code',
      redirect_uri: request.redirectUri,
      access_type: 'offline',
      prompt: 'consent',
      state: request.state,
    }).toString();
    return url.toString();
  },

  async exchange(settings, exchange, signal): Promise<GrantTokens> {
    const post = tokenEndpointOf(settings, { accountsUrl: accountsFor(settings, exchange.callback) });
    // https://www.zoho.com/accounts/protocol/oauth/web-apps/access-token.html
    const r = await post(
      { grant_type: 'authorization_code', redirect_uri: exchange.redirectUri, code: exchange.code },
      CodeResponse,
      signal,
    );
    return { accessToken: r.access_token, refreshToken: r.refresh_token, expiresInSeconds: r.expires_in };
  },

  async organisations(settings, tokens, callback, signal) {
    const dc = dataCentreOf(callback);
    const api = !settings.baseUrl && dc ? apiBaseUrl({ dataCenter: dc }) : apiBaseUrl(settings);
    const client = new VendorClient({
      vendor: 'zoho-books',
      prefixUrl: api,
      errorTable,
      timeoutMs: settings.timeoutMs,
      retry: { retries: 2, minTimeoutMs: 250, maxTimeoutMs: 2_000 },
      auth: { token: async () => tokens.accessToken, header: (t) => `Zoho-oauthtoken ${t}` },
    });
    // https://www.zoho.com/books/api/v3/organizations/#list-organizations
    const r = await client.request({
      path: 'organizations',
      endpoint: 'GET /organizations',
      schema: ZohoOrganizationsResponse,
      signal,
    });
    return r.organizations.map((o) => ({ id: String(o.organization_id), name: o.name ?? '' }));
  },

  extraConfigLines(settings, callback) {
    const dc = dataCentreOf(callback);
    return dc && dc !== settings.dataCenter && !settings.accountsUrl && !settings.baseUrl ? [`dataCenter: ${dc}`] : [];
  },
};
