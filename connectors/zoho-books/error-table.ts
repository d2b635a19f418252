import {
  AuthError,
  ConfigError,
  RateLimitedError,
  RejectedError,
  type SyncError,
  TransientError,
} from '../../src/errors/index.js';
import type { ErrorContext } from '../../src/http/vendor-client.js';
import { rateLimitResetMs } from './rate-limit.js';

/**
 * Zoho Books status + body `code` → our error classes (https://zstatic.zohostatic.com/books/api/v3/errors/,
 * limits: https://www.zoho.com/books/api/v3/introduction/#api-call-limit). Read top to bottom; the first
 * row that matches wins. Bodies are `{code, message}`; `code: 0` is success whatever the status says, and a
 * non-zero code on a 200 is still an error. Zoho's own message is kept; tokens never are (they travel only
 * in the Authorization header).
 *
 * | match                                   | class             | notes                                             |
 * |-----------------------------------------|-------------------|---------------------------------------------------|
 * | 401, or code 57 / 14                    | AuthError         | the client forces one token refresh first         |
 * | 429 with code 45 or "call rate limit"   | RateLimitedError  | scope 'day': wait for the org's day to reset      |
 * | code 1070                               | RateLimitedError  | scope 'minute': Retry-After, else 2 s             |
 * | 429, code 44                            | RateLimitedError  | scope 'minute': X-Rate-Limit-Reset, else 60 s     |
 * | 403                                     | AuthError         | missing scope (ZohoBooks.*.READ)                  |
 * | code 6041                               | ConfigError       | organizationId is not one of the user's orgs      |
 * | 404, or code 1002 / 5                   | RejectedError     | record or path does not exist                     |
 * | 408, 5xx, or code 1000                  | TransientError    | retried with backoff                              |
 * | other 4xx, or a non-zero code on 2xx    | RejectedError     | our request was wrong; retrying cannot fix it     |
 */

/** No reset header on a per-minute 429: the fixed window frees within a minute. */
export const MINUTE_BACKOFF_MS = 60_000;
/** No reset header on a daily 429: try again in an hour (the pipeline parks the connection). */
export const DAY_BACKOFF_MS = 3_600_000;
/** Zoho's concurrency throttle (code 1070, seen by other integrations, not in Zoho's docs): a short pause is enough. */
export const CONCURRENCY_BACKOFF_MS = 2_000;

interface Row {
  match: (status: number, code: number | undefined, message: string) => boolean;
  make: (message: string, o: ErrorOptions) => SyncError;
}

interface ErrorOptions {
  status: number;
  source: string;
  operation: string;
  resetMs?: number;
  retryAfterMs?: number;
}

const isDaily = (code: number | undefined, message: string) =>
  code === 45 || /call rate limit|per day|daily/i.test(message);

const ROWS: Row[] = [
  {
    match: (s, c) => s === 401 || c === 57 || c === 14,
    make: (m, o) =>
      new AuthError(`${m} (the access token was refused; re-authorise the connection if a refresh does not help)`, o),
  },
  {
    match: (s, c, m) => (s === 429 || c === 45) && isDaily(c, m),
    make: (m, o) =>
      new RateLimitedError(m, { ...o, scope: 'day', retryAfterMs: o.resetMs ?? o.retryAfterMs ?? DAY_BACKOFF_MS }),
  },
  {
    match: (_s, c) => c === 1070,
    make: (m, o) =>
      new RateLimitedError(m, { ...o, scope: 'minute', retryAfterMs: o.retryAfterMs ?? CONCURRENCY_BACKOFF_MS }),
  },
  {
    match: (s, c) => s === 429 || c === 44,
    make: (m, o) =>
      new RateLimitedError(m, {
        ...o,
        scope: 'minute',
        retryAfterMs: o.resetMs ?? o.retryAfterMs ?? MINUTE_BACKOFF_MS,
      }),
  },
  {
    match: (s) => s === 403,
    make: (m, o) =>
      new AuthError(`${m} (check the OAuth scopes ZohoBooks.invoices/creditnotes/contacts/settings.READ)`, o),
  },
  {
    match: (_s, c) => c === 6041,
    make: (m, o) =>
      new ConfigError(`${m} (settings.organizationId is not an organisation this Zoho user belongs to)`, o),
  },
  { match: (s, c) => s === 404 || c === 1002 || c === 5, make: (m, o) => new RejectedError(m, o) },
  { match: (s, c) => s === 408 || s >= 500 || c === 1000, make: (m, o) => new TransientError(m, o) },
  { match: () => true, make: (m, o) => new RejectedError(m, o) },
];

function bodyCode(body: unknown): { code?: number; message?: string } {
  if (typeof body !== 'object' || body === null) return {};
  const b = body as { code?: unknown; message?: unknown };
  const code =
    typeof b.code === 'number'
      ? b.code
      : typeof b.code === 'string' && /^-?\d+$/.test(b.code)
        ? Number(b.code)
        : undefined;
  return { code, message: typeof b.message === 'string' ? b.message : undefined };
}

/** The Books API error table (plugged into VendorClient). Undefined = success. */
export function errorTable(ctx: ErrorContext): SyncError | undefined {
  const { code, message } = bodyCode(ctx.body);
  if (ctx.status < 300 && (code === undefined || code === 0)) return undefined;
  const text = message ?? (ctx.text ? ctx.text.slice(0, 200) : `HTTP ${ctx.status}`);
  const full = `zoho-books ${ctx.operation} → ${ctx.status}${code === undefined ? '' : ` code ${code}`}: ${text}`;
  const opts: ErrorOptions = {
    status: ctx.status,
    source: 'zoho-books',
    operation: ctx.operation,
    resetMs: rateLimitResetMs(ctx.headers),
    retryAfterMs: ctx.retryAfterMs,
  };
  const row = ROWS.find((r) => r.match(ctx.status, code, text))!;
  return row.make(full, opts);
}

/**
 * Zoho Accounts' token endpoint (https://www.zoho.com/pdfeditor/help/api/oauth-step4.html). Failures usually come back as HTTP 200 with `{"error": "..."}`
 * (invalid_client, invalid_code...), so the body decides, not the status. Only AuthError and
 * TransientError leave here: they are the classes the shared client passes through from its auth hook.
 */
export function tokenErrorTable(ctx: ErrorContext): SyncError | undefined {
  const body = (typeof ctx.body === 'object' && ctx.body !== null ? ctx.body : {}) as {
    error?: unknown;
    error_description?: unknown;
  };
  const error = typeof body.error === 'string' ? body.error : undefined;
  const opts = { status: ctx.status, source: 'zoho-accounts', operation: ctx.operation };
  const tooMany = (error !== undefined && /access denied/i.test(error)) || ctx.status === 429;
  if (tooMany) {
    // "You have made too many requests continuously": at most ~10 refreshes per 10 minutes per token.
    return new TransientError(
      `zoho-accounts token refresh throttled: ${String(body.error_description ?? error ?? ctx.status)}`,
      {
        ...opts,
        retryAfterMs: MINUTE_BACKOFF_MS,
      },
    );
  }
  if (error !== undefined) {
    return new AuthError(
      `zoho-accounts refused the token refresh (${error}); check clientId/clientSecret/refreshToken and re-authorise the connection`,
      opts,
    );
  }
  if (ctx.status === 408 || ctx.status >= 500)
    return new TransientError(`zoho-accounts ${ctx.operation} → ${ctx.status}`, opts);
  if (ctx.status >= 300)
    return new AuthError(`zoho-accounts ${ctx.operation} → ${ctx.status}; re-authorise the connection`, opts);
  return undefined;
}
