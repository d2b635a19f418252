import type { CreateClientOptions } from '../../src/connector/types.js';
import { type AuthProvider, VendorClient } from '../../src/http/vendor-client.js';
import { xeroErrorTable } from './error-table.js';
import { readXeroQuota } from './rate-limit-headers.js';
import { createXeroRefresh } from './refresh-token.js';
import { XERO_API_URL, type XeroSettings } from './settings.js';

/**
 * The per-connection Xero client (https://developer.xero.com/documentation/api/accounting/overview).
 * - Auth: Bearer access token from the TokenStore (Redis; one refresh at a time across processes; the
 *   rotated refresh token persisted atomically). The config's refreshToken only seeds the store once.
 * - Every call sends `xero-tenant-id: <settings.tenantId>` and `Accept: application/json` (Xero answers
 *   XML otherwise).
 * - Quotas: `acquire` (our Redis quota: 55/min, 5,000/day, 5 in flight per connection) before each call;
 *   `X-DayLimit-Remaining`/`X-MinLimit-Remaining`/`X-AppMinLimit-Remaining` → onQuota on every response;
 *   a day-limit 429 parks the connection (src/http/wait-decision.ts decides).
 *
 * Worst-case attempt budget of ONE API call: 1 + 2 retries (p-retry, within 10 s) for TransientError and
 * minute/concurrency 429s whose Retry-After is ≤ 5 s (longer ones, and day limits, go up to the job);
 * each attempt may add one forced token refresh on a 401. A refresh itself is one attempt (never
 * retried in-process). The pull job then has its own attempts (jobs/catalog.ts).
 */
export function createXeroClient(options: CreateClientOptions<XeroSettings>): VendorClient {
  const { settings, tokens } = options;
  // The TokenStore key: the connection, or the group of connections sharing one Xero authorisation.
  const tokenKey = settings.tokenGroup ?? options.connectionId;
  const refresh = createXeroRefresh(settings);
  let seeded: Promise<void> | undefined;
  const seed = () =>
    (seeded ??= tokens.seed(tokenKey, settings.refreshToken).catch((err: unknown) => {
      seeded = undefined;
      throw err;
    }));
  const auth: AuthProvider = {
    token: async (stale) => {
      await seed();
      return tokens.accessToken(tokenKey, refresh, stale);
    },
    header: (token) => `Bearer ${token}`,
  };
  return new VendorClient({
    vendor: 'xero',
    prefixUrl: settings.baseUrl ?? XERO_API_URL,
    auth,
    errorTable: xeroErrorTable,
    headers: { 'xero-tenant-id': settings.tenantId, accept: 'application/json' },
    acquire: options.acquire,
    onResponse: options.onResponse,
    readQuota: readXeroQuota,
    onQuota: options.onQuota,
    park: options.park,
    connectionId: options.connectionId,
    logger: options.logger,
    retry: { retries: 2, maxRetryAfterMs: 5_000 },
  });
}
