import type { CreateClientOptions } from '../../src/connector/types.js';
import { connectionHooks } from '../../src/http/connection-hooks.js';
import { VendorClient } from '../../src/http/vendor-client.js';
import type { RetryPolicy } from '../../src/http/with-retry.js';
import { createAuth } from './auth.js';
import { errorTable } from './error-table.js';
import { readQuota } from './rate-limit.js';
import { apiBaseUrl, type Settings } from './settings.js';

/**
 * The per-connection Zoho Books client: the shared VendorClient (got, no got retries) with
 * - auth: `Authorization: Zoho-oauthtoken <token>` from the shared TokenStore, one forced refresh on 401;
 * - `organization_id` on every call (settings.organizationId; https://www.zoho.com/books/api/v3/introduction/);
 * - the Zoho error table (error-table.ts) and the X-Rate-Limit-* headers on every response (rate-limit.ts);
 * - quota slots from the pipeline (`acquire`: perMinute 90 < Zoho's 100/min/org, perDay, concurrency 5).
 *
 * Retry budget of one call (p-retry, the only in-process retry owner):
 *
 * | error                          | here                                                  | worst case      |
 * |--------------------------------|-------------------------------------------------------|-----------------|
 * | 5xx, 408, network              | 1 + 4 attempts, backoff 0.25 s → 4 s                  | 5 HTTP calls    |
 * | per-minute 429                 | waited for X-Rate-Limit-Reset (≤ 60 s, else 60 s) and | 5 HTTP calls,   |
 * |                                | retried, at most 4 times within 150 s                 | ~150 s          |
 * | daily 429 (scope 'day'), other | not retried: the pipeline parks or fails the job      | 1 HTTP call     |
 *
 * The per-minute wait goes past the pipeline's 5 s in-place default on purpose: Zoho's minute window is
 * fixed, so the wait is bounded by a minute, and giving up would throw away a read that is not sorted by
 * its cursor (it restarts from the checkpoint). Our budget of 90/min keeps these rare: they happen when
 * another integration shares the organisation's 100/min. A pull job has 5 attempts (docs/configuration.md,
 * "Retry budget").
 */
const RETRY: RetryPolicy = {
  retries: 4,
  minTimeoutMs: 250,
  maxTimeoutMs: 4_000,
  maxRetryTimeMs: 150_000,
  retryRateLimited: true,
  maxRetryAfterMs: 65_000,
};

export interface ClientOptions extends CreateClientOptions<Settings> {
  /** Overrides the retry policy's backoffs (tests use short ones). */
  retry?: RetryPolicy;
}

export function createClient(options: ClientOptions): VendorClient {
  const { settings } = options;
  return new VendorClient({
    vendor: 'zoho-books',
    prefixUrl: apiBaseUrl(settings),
    auth: createAuth({
      connectionId: options.connectionId,
      settings,
      tokens: options.tokens,
      logger: options.logger,
      backoff: options.retry,
    }),
    errorTable,
    query: { organization_id: settings.organizationId },
    retry: { ...RETRY, ...(options.retry ?? {}) },
    timeoutMs: settings.timeoutMs,
    readQuota,
    ...connectionHooks(options),
  });
}
