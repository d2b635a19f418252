import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RefreshFn, TokenStore } from '../../src/auth/token-store.js';
import { AuthError } from '../../src/errors/index.js';
import { manualWait } from '../support/manual-wait.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

/**
 * A vendor whose refresh tokens are single-use (Xero) or rotate (QBO): using an old one fails. Its answer
 * waits for `others` callers to be waiting on the refresh lock (`waits`, injected into the stores), so
 * every caller overlaps the refresh; then their waits end.
 */
function rotatingVendor(initial: string, tag: string, waits: ReturnType<typeof manualWait>, others: number) {
  let valid = initial;
  let n = 0;
  const refresh: RefreshFn = async (refreshToken) => {
    await waits.waiting(others);
    waits.release();
    if (refreshToken !== valid) throw new AuthError('invalid_grant');
    n++;
    valid = `rt${tag}-${n}`;
    return { accessToken: `at${tag}-${n}`, expiresInSeconds: 1800, refreshToken: valid };
  };
  return { refresh, count: () => n, current: () => valid };
}

describe('TokenStore', () => {
  const prefix = testPrefix('tokens');
  const redises: Redis[] = [];
  beforeAll(() => {
    for (let i = 0; i < 3; i++) redises.push(connect());
  });
  afterAll(async () => {
    await dropPrefix(redises[0]!, prefix);
    await Promise.all(redises.map((r) => r.quit()));
  });

  it('given three processes that need a token at the same moment, when the vendor rotates single-use refresh tokens, then exactly one refresh happens and all get the same token', async () => {
    const waits = manualWait();
    const vendor = rotatingVendor('rt-0', '', waits, 8);
    const stores = redises.map((r) => new TokenStore(r, { prefix, wait: waits.wait }));
    await stores[0]!.seed('conn-a', 'rt-0');
    const tokens = await Promise.all(
      stores.flatMap((s) => [s, s, s].map((x) => x.accessToken('conn-a', vendor.refresh))),
    );
    expect(vendor.count()).toBe(1);
    expect(new Set(tokens)).toEqual(new Set(['at-1']));
    expect(await redises[0]!.hget(`${prefix}:token:conn-a`, 'refreshToken')).toBe('rt-1');
  });

  it('given a rotated token in Redis, when config seeds the original again on restart, then the rotated one is kept', async () => {
    const store = new TokenStore(redises[0]!, { prefix });
    await store.seed('conn-a', 'rt-0');
    expect(await redises[0]!.hget(`${prefix}:token:conn-a`, 'refreshToken')).toBe('rt-1');
  });

  it('given a valid token, when asked again, then no refresh is made', async () => {
    let calls = 0;
    const store = new TokenStore(redises[1]!, { prefix });
    const t = await store.accessToken('conn-a', async () => {
      calls++;
      return { accessToken: 'x', expiresInSeconds: 1 };
    });
    expect(t).toBe('at-1');
    expect(calls).toBe(0);
  });

  it('given the vendor refused a token (401), when two processes report it stale at once, then one refresh replaces it', async () => {
    const waits = manualWait();
    const vendor = rotatingVendor('rt-1', 'x', waits, 2);
    const stores = redises.map((r) => new TokenStore(r, { prefix, wait: waits.wait }));
    const tokens = await Promise.all(stores.map((s) => s.accessToken('conn-a', vendor.refresh, 'at-1')));
    expect(vendor.count()).toBe(1);
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe('at-1');
  });

  it('given an expired access token, when asked, then it is refreshed before use (skew respected)', async () => {
    let now = 1_000_000;
    const store = new TokenStore(redises[0]!, { prefix, now: () => now, skewMs: 60_000 });
    await store.seed('conn-b', 'rt-b');
    let calls = 0;
    const refresh: RefreshFn = async () => ({ accessToken: `b-${++calls}`, expiresInSeconds: 3600 });
    expect(await store.accessToken('conn-b', refresh)).toBe('b-1');
    now += 3600_000 - 59_000; // inside the skew window
    expect(await store.accessToken('conn-b', refresh)).toBe('b-2');
    expect(calls).toBe(2);
  });

  it('given no refresh token at all, then an AuthError asks to re-authorise', async () => {
    const store = new TokenStore(redises[0]!, { prefix });
    await expect(
      store.accessToken('conn-none', async () => ({ accessToken: 'x', expiresInSeconds: 1 })),
    ).rejects.toThrow(/re-authorise/);
  });

  it('given the refresh fails, then the lock is released and the next caller can refresh', async () => {
    const store = new TokenStore(redises[0]!, { prefix });
    await store.seed('conn-c', 'rt-c');
    await expect(
      store.accessToken('conn-c', async () => {
        throw new AuthError('invalid_grant');
      }),
    ).rejects.toThrow('invalid_grant');
    expect(await store.accessToken('conn-c', async () => ({ accessToken: 'c-1', expiresInSeconds: 600 }))).toBe('c-1');
  });
});
