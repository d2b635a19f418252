import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RefreshFn, TokenStore } from '../../src/auth/token-store.js';
import { tokenStoreAuth } from '../../src/auth/token-store-auth.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

describe('tokenStoreAuth', () => {
  const prefix = testPrefix('token-auth');
  let redis: Redis;
  beforeAll(() => {
    redis = connect();
  });
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  /** A vendor that rotates its refresh token on every refresh and records the tokens it was sent. */
  function rotatingVendor(tag = '') {
    const sent: string[] = [];
    const refresh: RefreshFn = async (refreshToken) => {
      sent.push(refreshToken);
      return {
        accessToken: `at${tag}-${sent.length}`,
        expiresInSeconds: 3600,
        refreshToken: `rt${tag}-${sent.length}`,
      };
    };
    return { refresh, sent };
  }

  /** A provider for `key` whose config holds 'rt-config'. */
  function authFor(key: string, refresh: RefreshFn, tokens = new TokenStore(redis, { prefix })) {
    return tokenStoreAuth({ tokens, key, refreshToken: 'rt-config', refresh, scheme: 'Bearer' });
  }

  it('given a fresh key, when a token is asked for twice, then the config refresh token seeds the store and one refresh serves both', async () => {
    const vendor = rotatingVendor();
    const auth = authFor('conn-a', vendor.refresh);
    expect(await auth.token()).toBe('at-1');
    expect(await auth.token()).toBe('at-1');
    expect(vendor.sent).toEqual(['rt-config']);
    expect(await redis.hget(`${prefix}:token:conn-a`, 'refreshToken')).toBe('rt-1');
  });

  it('given a rotated token in the store, when a new provider starts with the spent config token, then the rotated one is sent on the forced refresh', async () => {
    const vendor = rotatingVendor('b');
    const auth = authFor('conn-a', vendor.refresh);
    expect(await auth.token('at-1')).toBe('atb-1');
    expect(vendor.sent).toEqual(['rt-1']);
  });

  it('given the scheme, when the header is built, then it is the scheme, a space and the token', () => {
    const auth = tokenStoreAuth({
      tokens: new TokenStore(redis, { prefix }),
      key: 'conn-b',
      refreshToken: 'rt',
      refresh: rotatingVendor().refresh,
      scheme: 'Zoho-oauthtoken',
    });
    expect(auth.header('abc')).toBe('Zoho-oauthtoken abc');
  });

  it('given a seed that fails once, when a token is asked for again, then the seed is tried again', async () => {
    const tokens = new TokenStore(redis, { prefix });
    const realSeed = tokens.seed.bind(tokens);
    let seeds = 0;
    tokens.seed = async (key, refreshToken) => {
      seeds++;
      if (seeds === 1) throw new Error('redis down');
      return realSeed(key, refreshToken);
    };
    const vendor = rotatingVendor();
    const auth = authFor('conn-c', vendor.refresh, tokens);
    await expect(auth.token()).rejects.toThrow('redis down');
    expect(await auth.token()).toBe('at-1');
    expect(seeds).toBe(2);
    expect(vendor.sent).toEqual(['rt-config']);
  });

  it('given a provider that seeded the store, when the store is reset under it, then its next call seeds it from the config again instead of failing', async () => {
    const tokens = new TokenStore(redis, { prefix });
    const vendor = rotatingVendor('r');
    const auth = authFor('conn-d', vendor.refresh, tokens);
    expect(await auth.token()).toBe('atr-1');
    await tokens.reset('conn-d');
    expect(await auth.token()).toBe('atr-2');
    expect(vendor.sent).toEqual(['rt-config', 'rt-config']);
  });

  it('given a new refresh token in the config (a re-consent), then prepare() replaces the stored one and says so; the same token again is unchanged', async () => {
    const tokens = new TokenStore(redis, { prefix });
    const vendor = rotatingVendor('p');
    await authFor('conn-e', vendor.refresh, tokens).token();
    const renewed = tokenStoreAuth({
      tokens,
      key: 'conn-e',
      refreshToken: 'rt-consented',
      refresh: vendor.refresh,
      scheme: 'Bearer',
    });
    expect(await renewed.prepare!()).toBe('replaced');
    expect(await renewed.token()).toBe('atp-2');
    expect(vendor.sent.at(-1)).toBe('rt-consented');
    const again = tokenStoreAuth({
      tokens,
      key: 'conn-e',
      refreshToken: 'rt-consented',
      refresh: vendor.refresh,
      scheme: 'Bearer',
    });
    expect(await again.prepare!()).toBe('unchanged');
  });

  it('given no refresh token in the config, when the store holds a grant from erp-sync connect, then it is used; when the store holds none, then the refusal names erp-sync connect', async () => {
    const tokens = new TokenStore(redis, { prefix });
    const vendor = rotatingVendor('c');
    await tokens.replace('conn-connected', { refreshToken: 'rt-granted' });
    const auth = tokenStoreAuth({ tokens, key: 'conn-connected', refresh: vendor.refresh, scheme: 'Bearer' });
    expect(await auth.prepare!()).toBe('unchanged');
    expect(await auth.token()).toBe('atc-1');
    expect(vendor.sent).toEqual(['rt-granted']);

    const none = tokenStoreAuth({ tokens, key: 'conn-never', refresh: vendor.refresh, scheme: 'Bearer' });
    await expect(none.token()).rejects.toThrow(
      'connection conn-never: no refresh token; re-authorise the connection: erp-sync connect --connection conn-never',
    );
    expect(vendor.sent).toEqual(['rt-granted']);
  });
});
