import { describe, expect, it } from 'vitest';
import {
  AuthError,
  ConflictError,
  CredentialsRefusedError,
  DataContractError,
  RateLimitedError,
  RejectedError,
  TransientError,
} from '../../../src/errors/index.js';
import type { BillingScope } from '../../../src/waits/billing-waits.js';
import { classifyUpsertFailure, type UpsertFailure } from '../../../jobs/upsert/classify-upsert-failure.js';
import { DependencyMissingError } from '../../../jobs/upsert/dependency-missing-error.js';

const limited = (retryAfterMs: number) => new RateLimitedError('billing 429', { retryAfterMs });

describe('a failed upsert of one record (classifyUpsertFailure)', () => {
  it.each<[string, unknown, BillingScope, boolean, UpsertFailure]>([
    [
      'a 429 with Retry-After 3 s under rateLimit.scope key',
      limited(3_000),
      'key',
      false,
      { action: 'pause-key', pauseMs: 3_000 },
    ],
    [
      'a 429 with Retry-After 3 s under rateLimit.scope deployment',
      limited(3_000),
      'deployment',
      false,
      { action: 'pause-queue', pauseMs: 3_000 },
    ],
    [
      'a 429 with Retry-After 0 under rateLimit.scope key',
      limited(0),
      'key',
      false,
      { action: 'pause-key', pauseMs: 100 },
    ],
    [
      'a billing 503 that reaches the breaker count',
      new TransientError('billing 503'),
      'deployment',
      true,
      { action: 'wait-for-billing' },
    ],
    [
      'a billing refusal while billing is marked down',
      new RejectedError('billing 400'),
      'key',
      true,
      { action: 'wait-for-billing' },
    ],
    [
      'a billing 503 below the breaker count',
      new TransientError('billing 503'),
      'deployment',
      false,
      { action: 'retry' },
    ],
    ['a network error below the breaker count', new Error('socket hang up'), 'key', false, { action: 'retry' }],
    [
      'a credit note whose invoices will not come',
      new DependencyMissingError('applies to INV-1'),
      'deployment',
      false,
      { action: 'quarantine', reason: 'DEPENDENCY_MISSING' },
    ],
    [
      'a 409 from billing',
      new ConflictError('invoice deleted in billing'),
      'deployment',
      false,
      { action: 'quarantine', reason: 'BILLING_CONFLICT' },
    ],
    [
      'a 401 from billing',
      new AuthError('billing key refused'),
      'key',
      false,
      { action: 'quarantine', reason: 'BILLING_AUTH' },
    ],
    [
      'refused credentials',
      new CredentialsRefusedError('billing key revoked'),
      'key',
      false,
      { action: 'quarantine', reason: 'BILLING_AUTH' },
    ],
    [
      'a body billing refuses (400)',
      new RejectedError('billing 400'),
      'deployment',
      false,
      { action: 'quarantine', reason: 'BILLING_REJECTED' },
    ],
    [
      "a body billing's schema refuses",
      new DataContractError('invalid request'),
      'deployment',
      false,
      { action: 'quarantine', reason: 'BILLING_REJECTED' },
    ],
  ])('given %s, then %j', (_, err, scope, billingDown, failure) => {
    expect(classifyUpsertFailure(err, { scope, billingDown })).toEqual(failure);
  });
});
