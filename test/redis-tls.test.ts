import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/errors/index.js';
import { checkRedisReachable } from '../src/redis.js';
import { expectOneLineError, runCli } from './support/cli.js';
import { backfillArgs, cliBackfillAndReconcile, configWithoutRedisUrl } from './support/cli-backfill-and-reconcile.js';
import { type Harness, startHarness } from './support/harness.js';
import { TEST_REDIS_URL } from './support/redis.js';
import { startTlsRedis, type LocalTlsRedis } from './support/redis-tls.js';
import { trustCaInThisProcess } from './support/trust-ca-in-this-process.js';

/**
 * `rediss://` against a real redis-server that speaks TLS only (no plain-text port), its certificate
 * signed by a throwaway private CA, with a password: the built CLI run as an operator runs it, the URL in
 * REDIS_URL and the CA in NODE_EXTRA_CA_CERTS (docs/configuration.md, "Redis URL forms"), the billing and
 * Zoho Books emulators on loopback. Without the CA the same command must stop at once, saying the
 * certificate is not trusted, and never print the password.
 */
const INVOICES = 80;

describe(`given a Redis reached only over TLS (private CA, password) and a Zoho organisation of ${INVOICES} invoices`, () => {
  const password = `tls-secret-${randomBytes(8).toString('hex')}`;
  let redis: LocalTlsRedis;
  let p: Harness;
  let configFile: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    redis = await startTlsRedis({ password });
    // The test's own runtime reads and checks Redis too; the CLI children get NODE_EXTRA_CA_CERTS.
    trustCaInThisProcess(redis.certificates.ca);
    p = await startHarness({ name: 'redis-tls', redisUrl: redis.url, invoices: INVOICES });
    configFile = await configWithoutRedisUrl(p);
    env = { ...p.secretEnv, REDIS_URL: redis.url };
  }, 60_000);
  afterAll(async () => {
    await p?.close();
    await redis?.stop();
  });

  it('when `erp-sync backfill` runs with REDIS_URL=rediss://:<password>@… and NODE_EXTRA_CA_CERTS naming the CA, then every invoice is in billing and `reconcile --deep` is clean', async () => {
    const { backfill, reconcile, seconds, inBilling, report } = await cliBackfillAndReconcile(p, configFile, {
      ...env,
      NODE_EXTRA_CA_CERTS: redis.certificates.ca,
    });
    for (const r of [backfill, reconcile]) expect(r.out + r.err).not.toContain(password);
    console.info(
      `[redis tls] backfill over rediss:// of ${INVOICES} invoices: ${inBilling} in billing in ${seconds.toFixed(1)} s; ` +
        `deep reconcile checked ${report.checked.ledger} ledger / ${report.checked.source} source, clean`,
    );
  }, 180_000);

  it('when the same backfill runs without the CA (NODE_EXTRA_CA_CERTS unset), then it exits 2 within seconds with one line saying the certificate is not trusted, and no password', async () => {
    const t0 = Date.now();
    const r = await runCli(backfillArgs(configFile), { env, timeoutMs: 20_000 });
    const took = Date.now() - t0;
    expect(r.signal, `killed after ${took} ms: it hung\n${r.err}`).toBeNull();
    const message = expectOneLineError(r);
    console.info(`[redis tls] without the CA: exit ${r.code} after ${took} ms: ${message}`);
    expect(message).toMatch(
      /^erp-sync: cannot connect to Redis at rediss:\/\/\[Redacted\]@127\.0\.0\.1:\d+: .*certificate/,
    );
    expect(message).toMatch(
      /the server's TLS certificate is not trusted: if a private CA signed it, set NODE_EXTRA_CA_CERTS=/,
    );
    expect(r.out + r.err).not.toContain(password);
  }, 30_000);

  it('when the URL says redis:// for the TLS port, then the start check fails at once in one line pointing to rediss://, without the password', async () => {
    const plain = redis.url.replace(/^rediss:/, 'redis:');
    const err = await checkRedisReachable(plain, 2000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(
      /^cannot connect to Redis at redis:\/\/\[Redacted\]@127\.0\.0\.1:\d+: .* — the server closed the connection: if that port speaks TLS, use rediss:\/\/$/,
    );
    expect((err as Error).message).not.toContain(password);
  });

  it('when the Redis requires client certificates (tls-auth-clients yes), then the start check fails at once in one line saying erp-sync presents none', async () => {
    const strict = await startTlsRedis({ password, authClients: true });
    try {
      trustCaInThisProcess(strict.certificates.ca);
      const err = await checkRedisReachable(strict.url, 2000).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as Error).message;
      expect(message).not.toContain('\n');
      expect(message).toMatch(
        /^cannot connect to Redis at rediss:\/\/\[Redacted\]@127\.0\.0\.1:\d+: .* — .*erp-sync presents no client certificate: set tls-auth-clients optional \(or no\) on the server$/,
      );
      expect(message).not.toContain(password);
    } finally {
      await strict.stop();
    }
  });

  it.runIf(TEST_REDIS_URL.startsWith('redis://'))(
    'when the URL says rediss:// for a plain-text Redis, then the start check gives up after its timeout asking whether that port speaks TLS',
    async () => {
      const err = await checkRedisReachable(TEST_REDIS_URL.replace(/^redis:/, 'rediss:'), 1000).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(/does that port speak TLS \(redis:\/\/ for one that does not\)/);
    },
  );
});
