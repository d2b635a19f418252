import { describe, expect, it } from 'vitest';
import { billingError } from '../../src/billing/error-table.js';
import { AuthError, ConflictError, RateLimitedError, RejectedError, TransientError } from '../../src/errors/index.js';

const op = 'POST /external/invoice/upsert';

describe('billing error table', () => {
  it('given a 429 with Retry-After 2, then a retryable RateLimitedError of 2000 ms', () => {
    const e = billingError(429, { error: 'RATE_LIMITED', message: 'slow down' }, { 'retry-after': '2' }, op);
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e.retryable).toBe(true);
    expect(e.retryAfterMs).toBe(2000);
  });
  it('given a 429 without Retry-After, then a 1 s default wait', () => {
    expect(billingError(429, {}, {}, op).retryAfterMs).toBe(1000);
  });
  it.each([500, 502, 503, 504, 408])('given %i, then TransientError (retryable)', (status) => {
    const e = billingError(status, { error: 'UNAVAILABLE', message: 'down' }, {}, op);
    expect(e).toBeInstanceOf(TransientError);
    expect(e.retryable).toBe(true);
  });
  it('given a 503 with Retry-After 3, then the delay is kept', () => {
    expect(billingError(503, {}, { 'retry-after': '3' }, op).retryAfterMs).toBe(3000);
  });
  it('given a 400, then RejectedError (not retryable) carrying the service message', () => {
    const e = billingError(400, { error: 'BAD_REQUEST', message: 'invoice.invoiceId: Invalid input' }, {}, op);
    expect(e).toBeInstanceOf(RejectedError);
    expect(e.retryable).toBe(false);
    expect(e.message).toContain('invoice.invoiceId: Invalid input');
    expect(e.status).toBe(400);
  });
  it.each([
    [401, AuthError],
    [403, AuthError],
    [409, ConflictError],
    [404, RejectedError],
    [413, RejectedError],
  ] as const)('given %i, then %o', (status, cls) => {
    const e = billingError(status, { error: 'X', message: 'm' }, {}, op);
    expect(e).toBeInstanceOf(cls);
    expect(e.retryable).toBe(false);
  });
  it('given a non-JSON body, then the text is kept (truncated)', () => {
    expect(billingError(502, 'Bad gateway from proxy', {}, op).message).toContain('Bad gateway from proxy');
  });
});
