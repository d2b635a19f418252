import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/errors/index.js';
import {
  assertNoEviction,
  checkRedisReachable,
  deleteKeysWithPrefix,
  isClusterUrl,
  parseRedisUrl,
  pings,
  resolveRedis,
  startEmbeddedRedis,
  stateConnection,
} from '../src/redis.js';
import { expectOneLineError, runCli } from './support/cli.js';
import { connect, testPrefix } from './support/redis.js';

describe('redis resolution', () => {
  it('given an explicit URL, then it is used as configured', async () => {
    const r = await resolveRedis('redis://example.invalid:6379');
    expect(r).toMatchObject({ url: 'redis://example.invalid:6379', source: 'configured' });
  });

  it('given nothing listening on a port, then pings is false within its budget', async () => {
    expect(await pings('127.0.0.1', 1, 300)).toBe(false);
  });

  it('given redis-server on PATH, when started embedded, then it answers and uses noeviction, and stop() ends it', async () => {
    const r = await startEmbeddedRedis();
    expect(r.source).toBe('embedded');
    const redis = stateConnection(r.url);
    await expect(assertNoEviction(redis)).resolves.toBeUndefined();
    await redis.quit();
    await r.stop();
    const port = Number(new URL(r.url).port);
    expect(await pings('127.0.0.1', port, 300)).toBe(false);
  });

  it('given a Redis with allkeys-lru, then startup is refused with a message saying how to fix it', async () => {
    const r = await startEmbeddedRedis();
    const redis = stateConnection(r.url);
    try {
      await redis.config('SET', 'maxmemory-policy', 'allkeys-lru');
      const err = await assertNoEviction(redis).catch((e) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect(err.message).toContain('"allkeys-lru"');
      expect(err.message).toContain('CONFIG SET maxmemory-policy noeviction');
    } finally {
      await redis.quit();
      await r.stop();
    }
  });

  it("given keys under a prefix and a neighbour that only starts alike, then deleteKeysWithPrefix removes exactly the prefix's keys", async () => {
    const redis = connect();
    const prefix = testPrefix('del');
    await redis.mset(`${prefix}:a`, '1', `${prefix}:b:c`, '2', `${prefix}x:keep`, '3');
    expect(await deleteKeysWithPrefix(redis, prefix)).toBe(2);
    expect(await redis.get(`${prefix}x:keep`)).toBe('3');
    await redis.del(`${prefix}x:keep`);
    await redis.quit();
  });

  describe('given a Redis that cannot be used', () => {
    const PASSWORD = 'CANARY-redis-pw-7c1e';

    it('when the password is wrong, then checkRedisReachable says so in one line, with the host and without the password', async () => {
      const r = await startEmbeddedRedis();
      const admin = stateConnection(r.url);
      try {
        await admin.config('SET', 'requirepass', 'the-real-one');
        const url = r.url.replace('redis://', `redis://:${PASSWORD}@`);
        const err = await checkRedisReachable(url).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ConfigError);
        expect((err as Error).message).toMatch(
          /^cannot connect to Redis at redis:\/\/\[Redacted\]@127\.0\.0\.1:\d+: WRONGPASS/,
        );
        expect((err as Error).message).toContain('check the password');
        expect((err as Error).message).not.toContain(PASSWORD);
      } finally {
        await admin.auth('the-real-one');
        await admin.config('SET', 'requirepass', '');
        await admin.quit();
        await r.stop();
      }
    });

    it('when nothing listens there, then every CLI command exits 2 with one line and no stack trace, never printing the password', async () => {
      const url = `redis://:${PASSWORD}@127.0.0.1:1`;
      for (const args of [
        ['status'],
        ['dlq', 'list', '--connection', 'zoho-in'],
        ['backfill', '--connection', 'zoho-in', '--from', '2025-01-01', '--to', '2025-01-02'],
      ]) {
        const r = await runCli([...args, '--config', 'examples/sandbox.yaml'], {
          env: { REDIS_URL: url, LOG_LEVEL: 'error' },
        });
        expect(expectOneLineError(r), args.join(' ')).toMatch(
          /^erp-sync: cannot connect to Redis at redis:\/\/\[Redacted\]@127\.0\.0\.1:1: .*ECONNREFUSED/,
        );
        expect(r.out + r.err).not.toContain(PASSWORD);
      }
    });
  });
});

describe('redis URLs: one Redis, a Redis Cluster, a Sentinel-managed master', () => {
  it('given redis:// or rediss://, then it is one Redis, read by ioredis itself (rediss:// = TLS)', () => {
    expect(parseRedisUrl('redis://:pw@10.0.0.1:6380/2')).toEqual({
      kind: 'standalone',
      url: 'redis://:pw@10.0.0.1:6380/2',
    });
    expect(parseRedisUrl('rediss://cache.example.com:6380')).toEqual({
      kind: 'standalone',
      url: 'rediss://cache.example.com:6380',
    });
    expect(isClusterUrl('redis://127.0.0.1:6379')).toBe(false);
  });

  it('given redis+cluster:// with seed nodes, then it is a cluster with those seeds, the credentials, and TLS for rediss+cluster://', () => {
    expect(parseRedisUrl('redis+cluster://app:s%40cret@10.0.0.1:7000,10.0.0.2:7001,10.0.0.3')).toEqual({
      kind: 'cluster',
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
        { host: '10.0.0.3', port: 6379 },
      ],
      username: 'app',
      password: 's@cret',
      tls: false,
    });
    expect(parseRedisUrl('rediss+cluster://:pw@cfg.example.com:6379')).toMatchObject({
      kind: 'cluster',
      password: 'pw',
      username: undefined,
      tls: true,
    });
    expect(isClusterUrl('redis+cluster://127.0.0.1:7000')).toBe(true);
  });

  it('given redis+sentinel:// with sentinels and a master name, then it is that master through those sentinels', () => {
    expect(parseRedisUrl('redis+sentinel://:pw@s1:26379,s2/mymaster?sentinelPassword=sp&db=1')).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      name: 'mymaster',
      username: undefined,
      password: 'pw',
      sentinelPassword: 'sp',
      db: 1,
      tls: false,
    });
    expect(() => parseRedisUrl('redis+sentinel://s1:26379')).toThrow(/name the master/);
  });

  it('given a cluster URL with a password that cannot be reached, then the one-line error names the hosts and never the password', async () => {
    const err = await checkRedisReachable('redis+cluster://app:hunter2-secret@127.0.0.1:1,127.0.0.1:2', 500).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain('127.0.0.1:1,127.0.0.1:2');
    expect((err as Error).message).not.toContain('hunter2-secret');
  });
});
