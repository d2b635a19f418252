import { describe, expect, it } from 'vitest';
import { AuthError, RateLimitedError, RejectedError, TransientError } from '../../src/errors/index.js';
import { withRetry } from '../../src/http/with-retry.js';

const fast = { minTimeoutMs: 1, maxTimeoutMs: 2 };

describe('withRetry', () => {
  it('given two transient failures, when retries is 2, then the third attempt succeeds', async () => {
    let calls = 0;
    const out = await withRetry(
      async () => {
        calls++;
        if (calls < 3) throw new TransientError('503');
        return 'ok';
      },
      { ...fast, retries: 2 },
    );
    expect(out).toBe('ok');
    expect(calls).toBe(3);
  });

  it('given a permanent error, then exactly one attempt is made', async () => {
    let calls = 0;
    await expect(
      withRetry(async () => {
        calls++;
        throw new RejectedError('400 invoice.invoiceId: required');
      }, fast),
    ).rejects.toBeInstanceOf(RejectedError);
    expect(calls).toBe(1);
  });

  it('given an auth error, then it is not retried', async () => {
    let calls = 0;
    await expect(
      withRetry(async () => {
        calls++;
        throw new AuthError('401');
      }, fast),
    ).rejects.toBeInstanceOf(AuthError);
    expect(calls).toBe(1);
  });

  it('given a 429 and the default policy (billing), then it goes up at once for the queue rate limit', async () => {
    let calls = 0;
    await expect(
      withRetry(async () => {
        calls++;
        throw new RateLimitedError('429', { retryAfterMs: 10 });
      }, fast),
    ).rejects.toBeInstanceOf(RateLimitedError);
    expect(calls).toBe(1);
  });

  it('given a 429 with Retry-After 0.2 s and retryRateLimited, then the retry waits at least 200 ms', async () => {
    const times: number[] = [];
    await withRetry(
      async () => {
        times.push(performance.now());
        if (times.length === 1) throw new RateLimitedError('429', { retryAfterMs: 200 });
        return 1;
      },
      { ...fast, retryRateLimited: true },
    );
    expect(times).toHaveLength(2);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(195);
  });

  it('given a Retry-After longer than maxRetryAfterMs, then it is not waited for in-process', async () => {
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw new RateLimitedError('429', { retryAfterMs: 60_000 });
        },
        { ...fast, retryRateLimited: true, maxRetryAfterMs: 1000 },
      ),
    ).rejects.toBeInstanceOf(RateLimitedError);
    expect(calls).toBe(1);
  });

  it('given a day-limit 429, then it is never retried in-process', async () => {
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw new RateLimitedError('429', { retryAfterMs: 10, scope: 'day' });
        },
        { ...fast, retryRateLimited: true },
      ),
    ).rejects.toBeInstanceOf(RateLimitedError);
    expect(calls).toBe(1);
  });

  it('given a programming error (not a SyncError), then it is not retried', async () => {
    let calls = 0;
    await expect(
      withRetry(async () => {
        calls++;
        throw new Error('bug');
      }, fast),
    ).rejects.toThrow('bug');
    expect(calls).toBe(1);
  });
});
