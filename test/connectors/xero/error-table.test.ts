import { describe, expect, it } from 'vitest';
import { errorTable } from '../../../connectors/xero/error-table.js';
import { AuthError, RateLimitedError, TransientError } from '../../../src/errors/index.js';

describe('Xero error table', () => {
  const ctx = (status: number, headers: Record<string, string> = {}, body?: unknown, text = '') => ({
    status,
    headers,
    body,
    text,
    operation: 'GET /Invoices',
    retryAfterMs: headers['retry-after'] ? Number(headers['retry-after']) * 1000 : undefined,
  });

  it.each([
    ['minute', 'minute'],
    ['Minute limit', 'minute'],
    ['concurrent', 'minute'],
    ['AppMinute', 'minute'],
    ['day', 'day'],
    ['DayLimit', 'day'],
    ['Daily Limit', 'day'],
  ])('given X-Rate-Limit-Problem %j, then the scope is %s', (problem, scope) => {
    const e = errorTable(ctx(429, { 'x-rate-limit-problem': problem, 'retry-after': '7' }));
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e).toMatchObject({ scope, retryAfterMs: 7000 });
  });

  it('given a day-limit 429 without Retry-After, then it waits until the next UTC midnight', () => {
    const e = errorTable(ctx(429, { 'x-rate-limit-problem': 'day' })) as RateLimitedError;
    expect(e.retryAfterMs).toBeGreaterThan(0);
    expect(e.retryAfterMs).toBeLessThanOrEqual(86_400_000);
  });

  it('given problem bodies and token errors, then AuthError with Xero’s words; 2xx is no error', () => {
    expect(errorTable(ctx(401, {}, { Title: 'Unauthorized', Status: 401, Detail: 'TokenExpired' }))?.message).toContain(
      'TokenExpired',
    );
    expect(errorTable(ctx(400, {}, { error: 'invalid_client' }))).toBeInstanceOf(AuthError);
    expect(
      errorTable(
        ctx(
          400,
          {},
          {
            ErrorNumber: 10,
            Type: 'ValidationException',
            Elements: [{ ValidationErrors: [{ Message: 'Account code 9999 is not valid' }] }],
          },
        ),
      )?.message,
    ).toBe('Xero ValidationException: Account code 9999 is not valid');
    expect(errorTable(ctx(200, {}, { Status: 'OK' }))).toBeUndefined();
    expect(errorTable(ctx(502, {}, undefined, 'Bad gateway'))).toBeInstanceOf(TransientError);
  });
});
