import type { CreateClientOptions } from '../../src/connector/types.js';
import { connectionHooks } from '../../src/http/connection-hooks.js';
import { type ErrorTable, VendorClient } from '../../src/http/vendor-client.js';
import type { RetryPolicy } from '../../src/http/with-retry.js';
import { createAuth } from './auth.js';
import { errorTableFor } from './error-table.js';
import { readQuota } from './rate-limit.js';
import type { Settings } from './settings.js';

/**
 * The per-connection (per-realm) QuickBooks Online client: the shared VendorClient with
 * - auth: `Authorization: Bearer <token>` from the shared TokenStore (auth.ts), one forced refresh on 401;
 * - every call at `{baseUrl}/v3/company/{realmId}/…?minorversion=75`
 *   (https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/minor-versions);
 * - the error table (error-table.ts), with each error response's `intuit_tid` logged at debug level;
 * - readQuota (rate-limit.ts: Intuit sends no rate-limit headers) and quota slots from the pipeline
 *   (`acquire`: 450/min, 10 in flight; connector.ts).
 *
 * Retry budget of one call (p-retry, the only in-process retry owner): 1 + 3 retries = 4 attempts, only
 * for retryable errors (5xx/10000, 408, network errors, and a throttle whose wait is ≤ 5 s); each attempt
 * may add one forced token refresh and one repeat on 401, so ≤ 8 HTTP requests to the API plus ≤ 4 to
 * the token endpoint (each of those one attempt: Intuit rotates refresh tokens, auth.ts). Intuit's throttle asks for 60 s
 * (https://developer.intuit.com/app/developer/qbo/docs/learn/limits-and-throttles), above the 5 s
 * in-place cap, so src/waits/vendor-waits.ts parks the realm for every worker and the job is delayed.
 */
const RETRY: RetryPolicy = {
  retries: 3,
  minTimeoutMs: 250,
  maxTimeoutMs: 4_000,
  maxRetryTimeMs: 30_000,
  retryRateLimited: true,
  maxRetryAfterMs: 5_000,
};

export type ClientOptions = CreateClientOptions<Settings>;

export function createClient(options: ClientOptions): VendorClient {
  const { settings } = options;
  const table = errorTableFor({ throttleWaitMs: settings.throttleWaitMs });
  const errorTable: ErrorTable = (ctx) => {
    const error = table(ctx);
    if (error && options.logger) {
      options.logger.debug(
        { status: ctx.status, operation: ctx.operation, intuit_tid: ctx.headers.intuit_tid },
        'quickbooks error response',
      );
    }
    return error;
  };

  return new VendorClient({
    vendor: 'quickbooks',
    prefixUrl: `${settings.baseUrl.replace(/\/+$/, '')}/v3/company/${encodeURIComponent(settings.realmId)}`,
    auth: createAuth({
      connectionId: options.connectionId,
      settings,
      tokens: options.tokens,
      onResponse: options.onResponse,
    }),
    errorTable,
    query: { minorversion: settings.minorVersion },
    retry: RETRY,
    timeoutMs: settings.timeoutMs,
    readQuota,
    ...connectionHooks(options),
  });
}
