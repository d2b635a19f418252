import { z } from 'zod';
import type { AuthorizationFlow, GrantTokens } from '../../src/auth/authorization-flow.js';
import { VendorClient } from '../../src/http/vendor-client.js';
import { tokenEndpointOf } from './auth.js';
import { errorTableFor } from './error-table.js';
import { QboTokenResponse } from './schemas.js';
import { Settings } from './settings.js';

/**
 * Intuit's authorization-code flow
 * (https://developer.intuit.com/app/developer/qbo/docs/develop/authentication-and-authorization/oauth-2.0):
 * - `GET https://appcenter.intuit.com/connect/oauth2?client_id=…&response_type=code&scope=com.intuit.quickbooks.accounting&redirect_uri=…&state=…`;
 * - the browser comes back with `code`, `state` and `realmId`: the company the person chose, the one
 *   company this grant reaches (a grant is per company);
 * - `POST https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer`, HTTP Basic client auth, form
 *   grant_type=authorization_code&code=…&redirect_uri=… → access token (1 hour) and refresh token;
 * - a refused consent comes back as `error=access_denied`.
 * Intuit documents no PKCE for this flow; the client authenticates with its secret.
 */
export const QBO_SCOPE = 'com.intuit.quickbooks.accounting';

const ConnectSettings = Settings.partial({ realmId: true });
type ConnectSettings = z.output<typeof ConnectSettings>;

const CodeResponse = QboTokenResponse.extend({ refresh_token: z.string().min(1) });
const CompanyInfoResponse = z.looseObject({
  QueryResponse: z.looseObject({
    CompanyInfo: z.array(z.looseObject({ CompanyName: z.string().nullish() })).optional(),
  }),
});

export const authorization: AuthorizationFlow<ConnectSettings> = {
  settings: ConnectSettings,
  pkce: false,
  organisationSetting: 'realmId',
  configuredOrganisation: (s) => s.realmId,

  authorizeUrl(settings, request) {
    // https://developer.intuit.com/app/developer/qbo/docs/develop/authentication-and-authorization/oauth-2.0
    const url = new URL(settings.authorizeUrl);
    url.search = new URLSearchParams({
      client_id: settings.clientId,
      response_type: 'code',
      scope: QBO_SCOPE,
      redirect_uri: request.redirectUri,
      state: request.state,
    }).toString();
    return url.toString();
  },

  async exchange(settings, exchange, signal): Promise<GrantTokens> {
    // https://developer.intuit.com/app/developer/qbo/docs/develop/authentication-and-authorization/oauth-2.0
    const r = await tokenEndpointOf(settings)(
      { grant_type: 'authorization_code', code: exchange.code, redirect_uri: exchange.redirectUri },
      CodeResponse,
      signal,
    );
    return { accessToken: r.access_token, refreshToken: r.refresh_token, expiresInSeconds: r.expires_in };
  },

  async organisations(settings, tokens, callback, signal) {
    const realmId = callback.get('realmId');
    if (!realmId || !/^[A-Za-z0-9_-]+$/.test(realmId)) return [];
    const client = new VendorClient({
      vendor: 'quickbooks',
      prefixUrl: `${settings.baseUrl.replace(/\/+$/, '')}/v3/company/${realmId}`,
      errorTable: errorTableFor({ throttleWaitMs: settings.throttleWaitMs }),
      retry: { retries: 2, minTimeoutMs: 250, maxTimeoutMs: 2_000 },
      timeoutMs: settings.timeoutMs,
      query: { minorversion: settings.minorVersion },
      auth: { token: async () => tokens.accessToken, header: (t) => `Bearer ${t}` },
    });
    // https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/companyinfo
    const r = await client.request({
      path: 'query',
      endpoint: 'GET /query',
      query: { query: 'select * from CompanyInfo' },
      headers: { accept: 'application/json' },
      schema: CompanyInfoResponse,
      signal,
    });
    return [{ id: realmId, name: r.QueryResponse.CompanyInfo?.[0]?.CompanyName ?? '' }];
  },
};
