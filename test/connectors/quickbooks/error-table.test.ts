import { describe, expect, it } from 'vitest';
import { errorTable, errorTableFor, readFault, tokenErrorTable } from '../../../connectors/quickbooks/error-table.js';
import { AuthError, RateLimitedError, RejectedError, TransientError } from '../../../src/errors/index.js';

const table = errorTable;
const ctx = (status: number, body: unknown, headers: Record<string, string> = { intuit_tid: 'tid-1' }) => ({
  status,
  body,
  text: JSON.stringify(body),
  headers,
  operation: 'GET /query Invoice',
});
const fault = (code: string, type: string, message = 'msg', detail = 'detail') => ({
  Fault: { Error: [{ Message: message, Detail: detail, code, element: '' }], type },
  time: '2025-02-12T02:01:11.123-08:00',
});

describe('QuickBooks error table', () => {
  it('given Fault and lowercase fault bodies, then both read the same', () => {
    expect(readFault(fault('610', 'ValidationFault', 'Object Not Found'))).toEqual({
      type: 'ValidationFault',
      errors: [{ message: 'Object Not Found', detail: 'detail', code: '610', element: '' }],
    });
    expect(
      readFault({ fault: { error: [{ message: 'm', detail: 'd', code: '3200' }], type: 'AUTHENTICATION' } }),
    ).toEqual({
      type: 'AUTHENTICATION',
      errors: [{ message: 'm', detail: 'd', code: '3200', element: undefined }],
    });
    expect(readFault({ QueryResponse: {} })).toBeUndefined();
  });

  it('given 429 or ThrottleExceeded (3001, also as errorCode=003001 in the message), then RateLimitedError with a 60 s wait', () => {
    const a = table(ctx(429, fault('3001', 'SERVICE', 'message=ThrottleExceeded; errorCode=003001; statusCode=429')));
    expect(a).toBeInstanceOf(RateLimitedError);
    expect(a).toMatchObject({ retryAfterMs: 60_000, scope: 'minute' });
    expect(
      table(
        ctx(400, {
          Fault: {
            Error: [{ Message: 'message=ThrottleExceeded; errorCode=003001; statusCode=429' }],
            type: 'SERVICE',
          },
        }),
      ),
    ).toBeInstanceOf(RateLimitedError);
    expect(errorTableFor({ throttleWaitMs: 500 })(ctx(429, {}))).toMatchObject({ retryAfterMs: 500 });
  });

  it('given auth failures (lowercase 401 3200, 403 3100), then AuthError; messages keep intuit_tid and never the token', () => {
    const e = table(
      ctx(401, {
        fault: {
          error: [
            {
              message: 'message=AuthenticationFailed; errorCode=003200; statusCode=401',
              detail: 'Token expired: ',
              code: '3200',
            },
          ],
          type: 'AUTHENTICATION',
        },
      }),
    );
    expect(e).toBeInstanceOf(AuthError);
    expect(e?.message).toContain('intuit_tid tid-1');
    expect(table(ctx(403, fault('3100', 'AUTHORIZATION')))).toBeInstanceOf(AuthError);
  });

  it('given 610 Object Not Found, an invalid query (4000/4001) or a 200 that carries a Fault, then RejectedError', () => {
    expect(table(ctx(400, fault('610', 'ValidationFault', 'Object Not Found')))).toBeInstanceOf(RejectedError);
    expect(
      table(
        ctx(
          400,
          fault('4001', 'ValidationFault', 'Invalid query', "QueryValidationError: property 'Colour' is not queryable"),
        ),
      ),
    ).toBeInstanceOf(RejectedError);
    expect(table(ctx(200, fault('6000', 'ValidationFault')))).toBeInstanceOf(RejectedError);
  });

  it('given 5xx, SystemFault 10000 or 408, then TransientError; a 200 without Fault is no error', () => {
    expect(table(ctx(503, fault('10000', 'SystemFault')))).toBeInstanceOf(TransientError);
    expect(table(ctx(500, 'oops'))).toBeInstanceOf(TransientError);
    expect(table(ctx(408, {}))).toBeInstanceOf(TransientError);
    expect(table(ctx(200, { QueryResponse: {} }))).toBeUndefined();
  });

  it('given the token endpoint refuses (invalid_grant, invalid_client), then AuthError; 5xx Transient; 429 RateLimited', () => {
    const t = tokenErrorTable;
    expect(t(ctx(400, { error: 'invalid_grant' }))).toBeInstanceOf(AuthError);
    expect(t(ctx(400, { error: 'invalid_grant' }))?.message).toBe(
      'quickbooks token refresh refused (invalid_grant); re-authorise the connection',
    );
    expect(t(ctx(401, { error: 'invalid_client' }))).toBeInstanceOf(AuthError);
    expect(t(ctx(502, {}))).toBeInstanceOf(TransientError);
    expect(t(ctx(429, {}))).toBeInstanceOf(RateLimitedError);
    expect(t(ctx(200, { access_token: 'x', expires_in: 3600 }))).toBeUndefined();
  });
});
