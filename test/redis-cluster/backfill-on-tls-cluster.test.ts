import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { checkRedisReachable } from '../../src/redis.js';
import { backfillArgs, cliBackfillAndReconcile, configWithoutRedisUrl } from '../support/cli-backfill-and-reconcile.js';
import { expectOneLineError, runCli } from '../support/cli.js';
import { CONNECTION, type Harness, startHarness } from '../support/harness.js';
import { startRedisCluster, type LocalRedisCluster } from '../support/redis-cluster.js';
import { trustCaInThisProcess } from '../support/trust-ca-in-this-process.js';

/**
 * `rediss+cluster://` against a real Redis Cluster of three masters that speak TLS only, clients and
 * cluster bus alike (`--tls-cluster yes`), certificates from a throwaway private CA, a password: the built
 * CLI backfills a Zoho Books organisation into billing with REDIS_URL and NODE_EXTRA_CA_CERTS, as an
 * operator runs it, and a deep reconcile is clean. The client reaches each node by the address the cluster
 * announces (127.0.0.1, in the certificate's SANs) and checks its certificate there.
 */
const INVOICES = 60;

describe(`given a Redis Cluster of three TLS-only masters (private CA, password) and a Zoho organisation of ${INVOICES} invoices`, () => {
  const password = `tls-cluster-secret-${randomBytes(8).toString('hex')}`;
  let cluster: LocalRedisCluster;
  let p: Harness;
  let configFile: string;
  let env: Record<string, string>;
  let ca: string;

  beforeAll(async () => {
    const t0 = Date.now();
    cluster = await startRedisCluster({ tls: { password } });
    console.info(`[tls cluster] 3 TLS masters created and cluster_state:ok in ${Date.now() - t0} ms`);
    ca = cluster.certificates!.ca;
    // The test's own runtime reads and checks Redis too; the CLI children get NODE_EXTRA_CA_CERTS.
    trustCaInThisProcess(ca);
    p = await startHarness({ name: 'tls-cluster', redisUrl: cluster.url, invoices: INVOICES });
    configFile = await configWithoutRedisUrl(p);
    env = { ...p.secretEnv, REDIS_URL: cluster.url };
  }, 90_000);
  afterAll(async () => {
    await p?.close();
    await cluster?.stop();
  });

  it('when `erp-sync backfill` runs with REDIS_URL=rediss+cluster://:<password>@… and NODE_EXTRA_CA_CERTS, then every invoice is in billing and `reconcile --deep` is clean', async () => {
    const { backfill, reconcile, seconds, inBilling, report } = await cliBackfillAndReconcile(p, configFile, {
      ...env,
      NODE_EXTRA_CA_CERTS: ca,
    });
    for (const r of [backfill, reconcile]) expect(r.out + r.err).not.toContain(password);
    // Where the queues' and the connection's keys landed (hash tags of a random prefix: one to three masters).
    const masters = new Set(
      await Promise.all(
        [`{${p.prefix}:pull}`, `{${p.prefix}:upsert}`, `{${CONNECTION}}`].map(async (tag) =>
          cluster.portOfSlot(await cluster.keySlot(tag)),
        ),
      ),
    );
    console.info(
      `[tls cluster] backfill over rediss+cluster:// of ${INVOICES} invoices: ${inBilling} in billing in ${seconds.toFixed(1)} s; ` +
        `deep reconcile checked ${report.checked.ledger} ledger / ${report.checked.source} source, clean; pull, upsert and connection keys on ${masters.size} master(s)`,
    );
  }, 180_000);

  it('when the same backfill runs without the CA, then it exits 2 within seconds with one line saying the certificate is not trusted, and no password', async () => {
    const t0 = Date.now();
    const r = await runCli(backfillArgs(configFile), { env, timeoutMs: 20_000 });
    const took = Date.now() - t0;
    expect(r.signal, `killed after ${took} ms: it hung\n${r.err}`).toBeNull();
    const message = expectOneLineError(r);
    console.info(`[tls cluster] without the CA: exit ${r.code} after ${took} ms: ${message}`);
    expect(message).toMatch(
      /^erp-sync: cannot connect to Redis at rediss\+cluster:\/\/\[Redacted\]@127\.0\.0\.1:\d+,.*: .*certificate/,
    );
    expect(message).toMatch(
      /the server's TLS certificate is not trusted: if a private CA signed it, set NODE_EXTRA_CA_CERTS=/,
    );
    expect(r.out + r.err).not.toContain(password);
  }, 30_000);

  it('when the password is wrong, then the start check names the node that refused it and says to check the password, in one line', async () => {
    const wrong = cluster.url.replace(encodeURIComponent(password), 'not-the-password');
    const err = await checkRedisReachable(wrong, 2000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(
      /^cannot connect to Redis at rediss\+cluster:\/\/\[Redacted\]@[^ ]+: 127\.0\.0\.1:\d+: WRONGPASS .* — check the password in redis\.url \/ REDIS_URL$/,
    );
    expect((err as Error).message).not.toContain('not-the-password');
  });
});
