import { describe, expect, it } from 'vitest';
import { errorTable, tokenErrorTable } from '../../../connectors/zoho-books/error-table.js';
import { AuthError, ConfigError, RateLimitedError, RejectedError, TransientError } from '../../../src/errors/index.js';
import type { ErrorContext } from '../../../src/http/vendor-client.js';

const ctx = (status: number, body: unknown, headers: ErrorContext['headers'] = {}): ErrorContext => ({
  status,
  body,
  text: JSON.stringify(body ?? ''),
  headers,
  operation: 'GET /invoices',
});

describe('errorTable', () => {
  it.each([
    ['200 code 0', 200, { code: 0, message: 'success' }, {}, undefined],
    ['201 code 0', 201, { code: 0, message: 'Successfully created.' }, {}, undefined],
    ['401 code 57', 401, { code: 57, message: 'You are not authorized to perform this operation' }, {}, AuthError],
    ['200 with code 57', 200, { code: 57, message: 'You are not authorized' }, {}, AuthError],
    ['403', 403, { code: 1, message: 'scope' }, {}, AuthError],
    ['404 code 1002', 404, { code: 1002, message: 'Invoice does not exist.' }, {}, RejectedError],
    ['400 code 2', 400, { code: 2, message: 'Invalid value passed for sort_column' }, {}, RejectedError],
    [
      '400 code 6041',
      400,
      { code: 6041, message: 'This user is not associated with the CompanyID/CompanyName:1.' },
      {},
      ConfigError,
    ],
    ['500 code 1000', 500, { code: 1000, message: 'Internal error' }, {}, TransientError],
    ['503 without body', 503, undefined, {}, TransientError],
    ['200 with an unknown non-zero code', 200, { code: 9999, message: 'odd' }, {}, RejectedError],
  ] as const)('given %s, then the class is right', (_label, status, body, headers, cls) => {
    const error = errorTable(ctx(status, body, headers));
    if (cls === undefined) expect(error).toBeUndefined();
    else expect(error).toBeInstanceOf(cls);
  });

  it('given a per-minute 429 with X-Rate-Limit-Reset, then RateLimitedError scope minute waits exactly the reset', () => {
    const e = errorTable(
      ctx(
        429,
        { code: 44, message: 'exceeded the maximum number of requests per minute' },
        { 'x-rate-limit-reset': '17', 'x-rate-limit-remaining': '0' },
      ),
    );
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e).toMatchObject({ scope: 'minute', retryAfterMs: 17_000, status: 429 });
  });

  it('given a 429 without any reset header, then it backs off for the per-minute window (60 s)', () => {
    expect(errorTable(ctx(429, { code: 44, message: 'too many' }))).toMatchObject({
      scope: 'minute',
      retryAfterMs: 60_000,
    });
  });

  it('given the daily limit 429 (code 45), then RateLimitedError scope day until the reset, so the pipeline parks rather than retries', () => {
    const e = errorTable(
      ctx(
        429,
        { code: 45, message: 'The API call for this organization has exceeded the maximum call rate limit of 1000.' },
        { 'x-rate-limit-reset': '50400' },
      ),
    );
    expect(e).toMatchObject({ name: 'RateLimitedError', scope: 'day', retryAfterMs: 50_400_000 });
  });

  it("given an error body, then the message keeps Zoho's code and text and names the operation", () => {
    expect(errorTable(ctx(404, { code: 1002, message: 'Invoice does not exist.' }))?.message).toBe(
      'zoho-books GET /invoices → 404 code 1002: Invoice does not exist.',
    );
  });
});

describe('tokenErrorTable', () => {
  it.each([
    ['200 + invalid_code', 200, { error: 'invalid_code' }, AuthError],
    ['200 + invalid_client', 200, { error: 'invalid_client' }, AuthError],
    [
      '400 Access Denied (too many refreshes)',
      400,
      { error: 'Access Denied', error_description: 'You have made too many requests continuously.' },
      TransientError,
    ],
    ['502', 502, undefined, TransientError],
    ['200 with a token', 200, { access_token: 'x', expires_in: 3600 }, undefined],
  ] as const)('given %s, then the class is right', (_l, status, body, cls) => {
    const error = tokenErrorTable(ctx(status, body));
    if (cls === undefined) expect(error).toBeUndefined();
    else expect(error).toBeInstanceOf(cls);
  });
});
