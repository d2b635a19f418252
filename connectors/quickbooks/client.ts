/**
 * The QuickBooks Online client of one connection (one realm).
 *
 * Worst-case attempt budget per logical call: 1 + 3 retries = 4 attempts (p-retry, only for retryable
 * errors: 5xx/10000, network errors, and a 429 whose wait is ≤ 5 s); each attempt may add one forced token
 * refresh and one repeat on 401, so ≤ 8 HTTP requests to the API plus ≤ 4 to the token endpoint (each of
 * those at most 2 attempts). A real Intuit 429 asks for 60 s, above the in-process cap: the error goes up,
 * the vendor client parks the connection for 60 s (so other workers stop too) and the job is delayed.
 */
import type { CreateClientOptions } from '../../src/connector/types.js';
import type { RefreshFn } from '../../src/auth/token-store.js';
import { type AuthProvider, type ErrorTable, VendorClient } from '../../src/http/vendor-client.js';
import type { RetryPolicy } from '../../src/http/with-retry.js';
import { quickbooksErrorTable, quickbooksTokenErrorTable } from './error-table.js';
import { QboTokenResponse } from './schemas.js';
import type { QuickBooksSettings } from './settings.js';

const API_RETRY: RetryPolicy = {
  retries: 3,
  minTimeoutMs: 250,
  maxTimeoutMs: 4_000,
  maxRetryTimeMs: 30_000,
  retryRateLimited: true,
  maxRetryAfterMs: 5_000,
};

/**
 * The refresh function for the TokenStore: `POST /oauth2/v1/tokens/bearer` with HTTP Basic client auth and
 * a form body `grant_type=refresh_token&refresh_token=…` [Q3]. Intuit answers a NEW refresh token; the
 * TokenStore writes it atomically under its lock, so two workers never spend the same one (trap 16).
 * https://developer.intuit.com/app/developer/qbo/docs/develop/authentication-and-authorization/faq
 */
export function quickbooksRefresh(settings: QuickBooksSettings, options: Pick<CreateClientOptions<QuickBooksSettings>, 'onResponse'> = {}): RefreshFn {
  const url = new URL(settings.tokenUrl);
  const tokenClient = new VendorClient({
    vendor: 'quickbooks',
    prefixUrl: url.origin,
    errorTable: quickbooksTokenErrorTable({ throttleWaitMs: settings.throttleWaitMs }),
    // One retry only: a refresh whose answer was lost may already have rotated the token.
    retry: { retries: 1, minTimeoutMs: 200, maxTimeoutMs: 1_000, retryRateLimited: true },
    timeoutMs: 15_000,
    onResponse: options.onResponse,
  });
  const basic = Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString('base64');
  return async (refreshToken, signal) => {
    const r = await tokenClient.request({
      method: 'POST',
      path: url.pathname.replace(/^\/+/, ''),
      endpoint: 'POST /oauth2/v1/tokens/bearer',
      headers: { authorization: `Basic ${basic}` },
      form: { grant_type: 'refresh_token', refresh_token: refreshToken },
      schema: QboTokenResponse,
      anonymous: true,
      signal,
    });
    return { accessToken: r.access_token, expiresInSeconds: r.expires_in, refreshToken: r.refresh_token };
  };
}

export function createQuickBooksClient(options: CreateClientOptions<QuickBooksSettings>): VendorClient {
  const { connectionId, settings, tokens } = options;
  const refresh = quickbooksRefresh(settings, options);
  // The config's refresh token only seeds Redis once; after a rotation Redis holds the live one.
  let seeded: Promise<void> | undefined;
  const seed = () =>
    (seeded ??= tokens.seed(connectionId, settings.refreshToken).catch((err: unknown) => {
      seeded = undefined;
      throw err;
    }));
  const auth: AuthProvider = {
    token: async (stale) => {
      await seed();
      return tokens.accessToken(connectionId, refresh, stale);
    },
    header: (token) => `Bearer ${token}`,
  };

  const table = quickbooksErrorTable({ throttleWaitMs: settings.throttleWaitMs });
  const errorTable: ErrorTable = (ctx) => {
    const error = table(ctx);
    if (error && options.logger) {
      const tid = ctx.headers.intuit_tid;
      options.logger.debug({ status: ctx.status, operation: ctx.operation, intuit_tid: tid }, 'quickbooks error response');
    }
    return error;
  };

  // Every call: https://quickbooks.api.intuit.com/v3/company/{realmId}/…?minorversion=75 [Q3][Q12]
  return new VendorClient({
    vendor: 'quickbooks',
    prefixUrl: `${settings.baseUrl.replace(/\/+$/, '')}/v3/company/${encodeURIComponent(settings.realmId)}`,
    auth,
    errorTable,
    query: { minorversion: settings.minorVersion },
    retry: API_RETRY,
    timeoutMs: settings.timeoutMs,
    acquire: options.acquire,
    onResponse: options.onResponse,
    // A 429 asking for more than API_RETRY.maxRetryAfterMs (Intuit asks 60 s) parks the realm so every
    // worker backs off, and the job is delayed (src/http/wait-decision.ts).
    park: options.park,
    connectionId: options.connectionId,
    logger: options.logger,
  });
}
