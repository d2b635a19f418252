import type { CreateClientOptions } from '../../src/connector/types.js';
import { connectionHooks } from '../../src/http/connection-hooks.js';
import { VendorClient } from '../../src/http/vendor-client.js';
import type { RetryPolicy } from '../../src/http/with-retry.js';
import { createAuth } from './auth.js';
import { errorTable } from './error-table.js';
import { readQuota } from './rate-limit.js';
import { apiBaseUrl, type Settings } from './settings.js';

/**
 * The per-connection Xero client (https://developer.xero.com/documentation/api/accounting/overview): the
 * shared VendorClient (got, no got retries) with
 * - auth: `Authorization: Bearer <token>` from the shared TokenStore (auth.ts), one forced refresh on 401;
 * - `xero-tenant-id: <settings.tenantId>` and `Accept: application/json` on every call (Xero answers XML
 *   otherwise);
 * - the Xero error table (error-table.ts) and the `X-*Limit-Remaining` headers on every response
 *   (rate-limit.ts);
 * - quota slots from the pipeline (`acquire`: 55/min, 5,000/day, 5 in flight per connection).
 * The client only classifies; src/waits/vendor-waits.ts decides whether a 429 is waited out or parks
 * the connection (a day limit always parks).
 *
 * Worst-case attempt budget of ONE API call: 1 + 2 retries (p-retry, within 10 s) for TransientError and
 * minute/concurrency 429s whose Retry-After is ≤ 5 s (longer ones, and day limits, park); each attempt
 * may add one forced token refresh on a 401. A refresh itself is one attempt (never retried
 * in-process). The pull job then has its own attempts (jobs/catalog.ts).
 */
const RETRY: RetryPolicy = { retries: 2, maxRetryAfterMs: 5_000 };

export type ClientOptions = CreateClientOptions<Settings>;

export function createClient(options: ClientOptions): VendorClient {
  const { settings } = options;
  return new VendorClient({
    vendor: 'xero',
    prefixUrl: apiBaseUrl(settings),
    auth: createAuth({ connectionId: options.connectionId, settings, tokens: options.tokens, logger: options.logger }),
    errorTable,
    headers: { 'xero-tenant-id': settings.tenantId, accept: 'application/json' },
    retry: RETRY,
    timeoutMs: settings.timeoutMs,
    readQuota,
    ...connectionHooks(options),
  });
}
