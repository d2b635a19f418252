import { describe, expect, it } from 'vitest';
import * as E from '../../src/errors/index.js';

const instances = [
  new E.ConfigError('x'),
  new E.AuthError('x'),
  new E.RateLimitedError('x', { retryAfterMs: 1 }),
  new E.TransientError('x'),
  new E.RejectedError('x'),
  new E.ConflictError('x'),
  new E.DataContractError('x'),
  new E.ParkedError('c', 1),
  new E.BillingCompanyChangedError('c', 'acme', 'key-0123abcd'),
];

describe('error hierarchy', () => {
  it('every class has a unique SYNC_ERR_ code', () => {
    const codes = instances.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const c of codes) expect(c).toMatch(/^SYNC_ERR_[A-Z_]+$/);
  });
  it('name matches the class', () => {
    for (const e of instances) expect(e.name).toBe(e.constructor.name);
  });
  it('only rate-limited, transient and parked errors are retryable', () => {
    expect(
      instances
        .filter((e) => e.retryable)
        .map((e) => e.name)
        .sort(),
    ).toEqual(['ParkedError', 'RateLimitedError', 'TransientError']);
  });
  it('a data-contract error lists zod paths, not values', () => {
    const e = new E.DataContractError('bad response', { issues: ['docs.0.invoiceTotal: expected number'] });
    expect(e.message).toBe('bad response: docs.0.invoiceTotal: expected number');
    expect(e.toJSON()).toMatchObject({
      code: 'SYNC_ERR_DATA_CONTRACT',
      retryable: false,
      issues: ['docs.0.invoiceTotal: expected number'],
    });
  });
});
