import type { ErrorContext } from '../../src/http/vendor-client.js';
import { AuthError, RateLimitedError, RejectedError, type SyncError, TransientError } from '../../src/errors/index.js';
import { msToNextUtcMidnight } from '../../src/waits/vendor-waits.js';
import { rateLimitScope } from './rate-limit.js';

/**
 * Xero's errors → our classes. It classifies only: a 429 becomes a RateLimitedError with `retryAfterMs`
 * and `scope`, and src/waits/vendor-waits.ts decides whether that is waited out or parks the connection.
 * Messages carry Xero's own words (validation messages, problem Detail, plain-text bodies), never tokens
 * or headers. Sources: https://developer.xero.com/documentation/api/accounting/responsecodes (status
 * codes, problem and validation bodies), https://developer.xero.com/documentation/guides/oauth2/limits/
 * (429, `Retry-After`, `X-Rate-Limit-Problem`), https://developer.xero.com/faq/oauth2 (token endpoint).
 *
 * | status | Xero says                                   | class                                  |
 * |--------|---------------------------------------------|----------------------------------------|
 * | 400    | `{"error":"invalid_grant"}` (token endpoint) | AuthError: refresh token spent/expired |
 * | 400    | `{"error":"invalid_client"/...}`             | AuthError: client credentials          |
 * | 400    | ValidationException / QueryParseException    | RejectedError with the messages        |
 * | 401    | problem, Detail TokenExpired/Authentication… | AuthError (the client refreshes once)  |
 * | 403    | problem, AuthenticationUnsuccessful          | AuthError: revoked or wrong tenantId   |
 * | 404    | plain text                                  | RejectedError                           |
 * | 429    | empty; Retry-After, X-Rate-Limit-Problem     | RateLimitedError minute / day          |
 * | 408, 5xx | 503 "The Organisation is offline" (text)  | TransientError                          |
 * | other 4xx |                                           | RejectedError                           |
 */
const SOURCE = 'xero';

type Body = Record<string, unknown> | undefined;

function validationMessages(body: Body): string[] {
  const elements = Array.isArray(body?.Elements) ? (body.Elements as Array<Record<string, unknown>>) : [];
  return elements
    .flatMap((e) => (Array.isArray(e.ValidationErrors) ? (e.ValidationErrors as Array<{ Message?: unknown }>) : []))
    .map((v) => String(v.Message ?? ''))
    .filter((m) => m !== '');
}

export function errorTable(ctx: ErrorContext): SyncError | undefined {
  const { status, operation, text } = ctx;
  if (status < 300) return undefined;
  const body = (ctx.body !== null && typeof ctx.body === 'object' ? ctx.body : undefined) as Body;
  const base = { status, source: SOURCE, operation };
  const plain = text.trim().slice(0, 200);

  if (status === 429) {
    const scope = rateLimitScope(ctx.headers['x-rate-limit-problem']);
    const retryAfterMs = ctx.retryAfterMs ?? (scope === 'day' ? msToNextUtcMidnight(Date.now()) : 60_000);
    return new RateLimitedError(
      scope === 'day'
        ? `Xero daily call limit reached for this organisation; it resets in ${Math.ceil(retryAfterMs / 1000)} s`
        : `Xero rate limit reached (${String(ctx.headers['x-rate-limit-problem'] ?? 'minute')}); retry in ${Math.ceil(retryAfterMs / 1000)} s`,
      { ...base, retryAfterMs, scope },
    );
  }
  if (typeof body?.error === 'string') {
    const code = body.error;
    if (code === 'invalid_grant') {
      return new AuthError(
        'Xero refused the refresh token (invalid_grant): it was already used or has expired; re-authorise the connection',
        base,
      );
    }
    return new AuthError(
      `Xero token endpoint refused the request (${code.slice(0, 40)}); check clientId/clientSecret`,
      base,
    );
  }
  if (status === 401 || status === 403) {
    const detail =
      typeof body?.Detail === 'string' ? body.Detail : plain || (status === 401 ? 'Unauthorized' : 'Forbidden');
    const hint = status === 403 ? ': the connection was revoked or tenantId is not one of its organisations' : '';
    return new AuthError(`Xero ${status} ${detail}${hint}`, base);
  }
  if (status === 400) {
    const type = typeof body?.Type === 'string' ? body.Type : 'Bad request';
    const messages = validationMessages(body);
    const message = messages.length ? messages.join('; ') : typeof body?.Message === 'string' ? body.Message : plain;
    return new RejectedError(`Xero ${type}: ${message}`.slice(0, 500), base);
  }
  if (status === 408 || status >= 500) return new TransientError(`Xero ${status}: ${plain || 'server error'}`, base);
  return new RejectedError(`Xero ${status}: ${plain || 'request refused'}`, base);
}

/**
 * The token endpoint (`POST /connect/token`) answers in OAuth's `{"error": "invalid_grant"}` form, which the
 * one table above already recognises by its `error` field, so both clients use the same rows.
 */
export const tokenErrorTable = errorTable;
