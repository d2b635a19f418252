import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RefreshFn, TokenStore } from '../../src/auth/token-store.js';
import { TokenSealer } from '../../src/auth/token-sealer.js';
import { ConfigError } from '../../src/errors/index.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

const key1 = randomBytes(32).toString('base64');
const key2 = randomBytes(32).toString('base64');

/** A vendor that keeps the refresh token (Zoho) and counts refreshes. */
function keepingVendor() {
  let n = 0;
  const refresh: RefreshFn = async () => ({ accessToken: `at-secret-${++n}`, expiresInSeconds: 3600 });
  return { refresh, count: () => n };
}

describe('TokenStore: tokens sealed at rest', () => {
  const prefix = testPrefix('token-seal');
  let redis: Redis;
  const hash = (id: string) => `${prefix}:token:${id}`;
  beforeAll(() => {
    redis = connect();
  });
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given a key, when a token is seeded and refreshed, then Redis holds neither token in plain text, and the store reads them back', async () => {
    const store = new TokenStore(redis, { prefix, sealer: TokenSealer.withKeys(key1) });
    const vendor = keepingVendor();
    await store.seed('a', 'rt-secret-a');
    expect(await store.accessToken('a', vendor.refresh)).toBe('at-secret-1');
    expect(await store.accessToken('a', vendor.refresh)).toBe('at-secret-1');
    expect(vendor.count()).toBe(1);
    const raw = JSON.stringify(await redis.hgetall(hash('a')));
    expect(raw).not.toContain('rt-secret-a');
    expect(raw).not.toContain('at-secret-1');
    expect((await store.describe('a')).sealedUnder).toBe(TokenSealer.withKeys(key1).currentKeyId);
  });

  it('given a sealed value copied to another connection, then it does not open there', async () => {
    const store = new TokenStore(redis, { prefix, sealer: TokenSealer.withKeys(key1) });
    await redis.hset(hash('copy'), 'refreshToken', (await redis.hget(hash('a'), 'refreshToken'))!);
    const err = await store.accessToken('copy', keepingVendor().refresh).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/does not open/);
    await redis.del(hash('copy'));
  });

  it('given plain tokens written by the previous version, when a key is set, then they are read and sealed on the next write', async () => {
    // What the previous version wrote: the refresh token in plain text, no fingerprint.
    await redis.hset(hash('legacy'), 'refreshToken', 'rt-plain-legacy');
    const store = new TokenStore(redis, { prefix, sealer: TokenSealer.withKeys(key1) });
    const sent: string[] = [];
    expect(
      await store.accessToken(
        'legacy',
        async (rt) => (sent.push(rt), { accessToken: 'at-legacy', expiresInSeconds: 60 }),
      ),
    ).toBe('at-legacy');
    expect(sent).toEqual(['rt-plain-legacy']);
    expect(await redis.hget(hash('legacy'), 'refreshToken')).not.toContain('rt-plain-legacy');
    expect(await store.seed('legacy', 'rt-plain-legacy')).toBe('adopted');
    expect(await store.seed('legacy', 'rt-plain-legacy')).toBe('kept');
  });

  it('given tokens sealed under key 1, when the key becomes key 2 with key 1 as old, then they still open, rekey re-seals every one under key 2, and key 2 alone opens them', async () => {
    const before = await redis.hget(hash('a'), 'refreshToken');
    const rotated = new TokenStore(redis, { prefix, sealer: TokenSealer.withKeys(key2, [key1]) });
    expect(await rotated.accessToken('a', keepingVendor().refresh)).toBe('at-secret-1');
    const r = await rotated.rekey();
    expect(r.resealed).toBe(4); // a and legacy: access and refresh token each
    expect(await redis.hget(hash('a'), 'refreshToken')).not.toBe(before);
    expect((await rotated.describe('a')).sealedUnder).toBe(TokenSealer.withKeys(key2).currentKeyId);

    const onlyNew = new TokenStore(redis, { prefix, sealer: TokenSealer.withKeys(key2) });
    expect(await onlyNew.accessToken('a', keepingVendor().refresh)).toBe('at-secret-1');
    // The fingerprint key was re-sealed too: the same config token is still recognised.
    expect(await onlyNew.seed('a', 'rt-secret-a')).toBe('kept');
    expect(await onlyNew.rekey()).toEqual({ resealed: 0, current: 4 });
  });

  it('given rekey has sealed every token, when a plain refresh token is written into Redis around the store, then it is refused with a clear error and never sent to the vendor', async () => {
    await redis.hset(hash('swapped'), 'refreshToken', 'rt-of-someone-else');
    const store = new TokenStore(redis, { prefix, sealer: TokenSealer.withKeys(key2) });
    const sent: string[] = [];
    const err = await store
      .accessToken('swapped', async (rt) => (sent.push(rt), { accessToken: 'at-x', expiresInSeconds: 60 }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/swapped:refreshToken is plain text.*token rekey ran/);
    expect((err as Error).message).not.toContain('rt-of-someone-else');
    expect(sent).toEqual([]);
    // Without a key nothing is sealed, so nothing can be refused: plain values are the norm there.
    expect(await new TokenStore(redis, { prefix }).accessToken('swapped', keepingVendor().refresh)).toBe('at-secret-1');
    await redis.del(hash('swapped'));
  });

  it('given a value sealed under a key the process does not hold, then the error names the key id, never a value', async () => {
    const stranger = new TokenStore(redis, { prefix, sealer: TokenSealer.withKeys(key1) });
    const err = await stranger.accessToken('a', keepingVendor().refresh).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain(TokenSealer.withKeys(key2).currentKeyId!);
    expect((err as Error).message).toMatch(/ERP_SYNC_TOKEN_KEYS_OLD/);
  });

  it('given a malformed key in the environment, then a ConfigError names the variable, not the value', () => {
    expect(() => TokenSealer.fromEnv({ ERP_SYNC_TOKEN_KEY: 'not-a-key-secretvalue' })).toThrow(ConfigError);
    expect(() => TokenSealer.fromEnv({ ERP_SYNC_TOKEN_KEY: 'not-a-key-secretvalue' })).toThrow(
      /^ERP_SYNC_TOKEN_KEY: (?!.*secretvalue)/,
    );
    expect(TokenSealer.fromEnv({}).encrypted).toBe(false);
    expect(TokenSealer.fromEnv({ ERP_SYNC_TOKEN_KEY: key1 }).encrypted).toBe(true);
  });
});
