import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RefreshFn, TokenStore } from '../../src/auth/token-store.js';
import { AuthError, CredentialsRefusedError } from '../../src/errors/index.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

/** A vendor with one live refresh token at a time (a re-consent makes a new one live, the old one dead). */
function grantingVendor(initial: string) {
  let live = initial;
  let n = 0;
  const sent: string[] = [];
  const refresh: RefreshFn = async (refreshToken) => {
    sent.push(refreshToken);
    if (refreshToken !== live) throw new AuthError('token endpoint: invalid_grant', { status: 400, source: 'vendor' });
    n++;
    live = `${initial}-rotated-${n}`;
    return { accessToken: `at-${initial}-${n}`, expiresInSeconds: 3600, refreshToken: live };
  };
  return {
    refresh,
    sent,
    consent(next: string) {
      live = next;
    },
  };
}

describe('TokenStore: replacing tokens', () => {
  const prefix = testPrefix('token-replace');
  let redis: Redis;
  let store: TokenStore;
  const hash = (id: string) => `${prefix}:token:${id}`;
  beforeAll(() => {
    redis = connect();
    store = new TokenStore(redis, { prefix });
  });
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given a store seeded from config and rotated since, when the same config token seeds it again, then the rotated one is kept', async () => {
    const vendor = grantingVendor('rt-a');
    expect(await store.seed('a', 'rt-a')).toBe('seeded');
    await store.accessToken('a', vendor.refresh);
    expect(await store.seed('a', 'rt-a')).toBe('kept');
    expect(await redis.hget(hash('a'), 'refreshToken')).toBe('rt-a-rotated-1');
  });

  it('given a revoked grant in the store, when the config brings a new refresh token (re-consent), then it replaces the stored one and the next refresh uses it', async () => {
    const vendor = grantingVendor('rt-b');
    await store.seed('b', 'rt-b');
    await store.accessToken('b', vendor.refresh);
    vendor.consent('rt-b2');
    await expect(store.accessToken('b', vendor.refresh, 'at-rt-b-1')).rejects.toBeInstanceOf(CredentialsRefusedError);
    expect((await store.describe('b')).failedAt).toBeGreaterThan(0);

    expect(await store.seed('b', 'rt-b2')).toBe('replaced');
    const status = await store.describe('b');
    expect(status.failedAt).toBeUndefined();
    expect(status.hasAccessToken).toBe(false);
    expect(await store.accessToken('b', vendor.refresh)).toBe('at-rt-b-2');
    expect(vendor.sent.at(-1)).toBe('rt-b2');
  });

  it('given a token replaced by a re-consent, when a replica still on the old config seeds the old token, then it is not put back', async () => {
    expect(await store.seed('b', 'rt-b')).toBe('retired');
    expect(await redis.hget(hash('b'), 'refreshToken')).toBe('rt-b-rotated-2');
  });

  it('given a store written before fingerprints existed (a rotated token, no fingerprint), when the old config token seeds it, then the stored token is kept and the fingerprint adopted', async () => {
    await redis.hset(hash('legacy'), 'refreshToken', 'rt-live-rotated');
    expect(await store.seed('legacy', 'rt-spent-config')).toBe('adopted');
    expect(await redis.hget(hash('legacy'), 'refreshToken')).toBe('rt-live-rotated');
    expect(await store.seed('legacy', 'rt-spent-config')).toBe('kept');
  });

  it('given any store, then it holds keyed fingerprints only: neither the config token nor a plain SHA-256 of it', async () => {
    const { createHash } = await import('node:crypto');
    const h = await redis.hgetall(hash('b'));
    const values = Object.values(h).join('\n');
    for (const t of ['rt-b', 'rt-b2']) {
      expect(values).not.toContain(createHash('sha256').update(t).digest('hex'));
      expect(values).not.toContain(createHash('sha256').update(t).digest('base64url'));
    }
    expect(h.seedFp).toMatch(/^[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{43}$/);
  });

  it('given the fingerprint key lost from Redis (made again by the next seed), when the same config token seeds a rotated store, then the rotated token is kept, not taken for a re-consent', async () => {
    const vendor = grantingVendor('rt-f');
    await store.seed('f', 'rt-f');
    await store.accessToken('f', vendor.refresh);
    await redis.del(`${prefix}:token-fingerprint-key`);
    // Another process, whose first seed makes a new fingerprint key.
    const other = new TokenStore(redis, { prefix });
    expect(await other.seed('f', 'rt-f')).toBe('adopted');
    expect(await redis.hget(hash('f'), 'refreshToken')).toBe('rt-f-rotated-1');
    // Both processes now fingerprint alike: the same token is kept, a new one replaces.
    expect(await store.seed('f', 'rt-f')).toBe('kept');
    expect(await store.seed('f', 'rt-f-consented')).toBe('replaced');
  });

  it('given a refresh in flight with the old token, when the store is replaced meanwhile, then the refresh result does not overwrite the new grant', async () => {
    await store.seed('c', 'rt-c');
    const sent: string[] = [];
    const token = await store.accessToken('c', async (refreshToken) => {
      sent.push(refreshToken);
      if (sent.length === 1) {
        // A consent lands while the vendor answers the old grant's refresh.
        await store.replace('c', { refreshToken: 'rt-c-consented' });
        return { accessToken: 'at-old-grant', expiresInSeconds: 3600, refreshToken: 'rt-old-grant-rotated' };
      }
      return { accessToken: 'at-new-grant', expiresInSeconds: 3600 };
    });
    expect(sent).toEqual(['rt-c', 'rt-c-consented']);
    expect(token).toBe('at-new-grant');
    expect(await redis.hget(hash('c'), 'refreshToken')).toBe('rt-c-consented');
  });

  it('given replace() with an access token, then it is served without a refresh, and the config token does not take over on the next seed', async () => {
    const now = Date.now();
    await store.replace('d', { refreshToken: 'rt-d-new', accessToken: 'at-d-new', expiresAt: now + 3600_000 });
    expect(await store.accessToken('d', async () => Promise.reject(new Error('no refresh expected')))).toBe('at-d-new');
    await store.seed('d', 'rt-d-config');
    // A store without a seed fingerprint adopts the config's: the new grant stays.
    expect(await redis.hget(hash('d'), 'refreshToken')).toBe('rt-d-new');
  });

  it('given reset(), then the tokens are gone and the config token seeds the store again', async () => {
    expect(await store.reset('b')).toBe(true);
    expect((await store.describe('b')).hasRefreshToken).toBe(false);
    expect(await store.seed('b', 'rt-b')).toBe('seeded');
  });

  it('given no refresh token at all, then the error is a CredentialsRefusedError (an AuthError) asking to re-authorise', async () => {
    const err = await store
      .accessToken('none', async () => ({ accessToken: 'x', expiresInSeconds: 1 }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CredentialsRefusedError);
    expect(err).toBeInstanceOf(AuthError);
  });
});
