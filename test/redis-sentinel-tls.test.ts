import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/errors/index.js';
import { freePort } from '../src/http/free-port.js';
import { assertNoEviction, checkRedisReachable, stateConnection } from '../src/redis.js';
import {
  killChild,
  type LocalTlsRedis,
  spawnTlsRedisServer,
  startTlsRedis,
  tlsServerArgs,
} from './support/redis-tls.js';
import { trustCaInThisProcess } from './support/trust-ca-in-this-process.js';
import { until } from './support/until.js';

/**
 * `rediss+sentinel://` against a real TLS Sentinel: a redis-server master that speaks TLS only (no
 * plain-text port) with a password, and a Sentinel (`redis-server <conf> --sentinel`) that also listens on
 * TLS only and reaches the master over TLS (`tls-replication yes`) with that password (`sentinel auth-pass`),
 * both with certificates from one throwaway private CA, on loopback
 * (https://redis.io/docs/latest/operate/oss_and_stack/management/sentinel/,
 * https://redis.io/docs/latest/operate/oss_and_stack/management/security/encryption/). erp-sync asks the
 * Sentinel over TLS where the master is and talks to it over TLS. The CA is trusted in this process as
 * NODE_EXTRA_CA_CERTS trusts it in a CLI's (test/support/trust-ca-in-this-process.ts), only where a case says
 * so; without it the start check must stop at once saying the certificate is not trusted, without the password.
 */
const MASTER = 'erpmaster';

describe('given a TLS-only Redis master with a password, watched by a Sentinel that speaks TLS only, their certificates signed by a private CA', () => {
  const password = `sentinel-tls-secret-${randomBytes(8).toString('hex')}`;
  let master: LocalTlsRedis;
  let sentinel: Awaited<ReturnType<typeof startTlsSentinel>> | undefined;
  let url: string;

  beforeAll(async () => {
    // Generous start-up budgets: the machine may be busy with other work.
    master = await startTlsRedis({ password, readyTimeoutMs: 30_000 });
    sentinel = await startTlsSentinel(master);
    url = `rediss+sentinel://:${encodeURIComponent(password)}@127.0.0.1:${sentinel.port}/${MASTER}`;
  }, 120_000);
  afterAll(async () => {
    await sentinel?.stop();
    await master?.stop();
  });

  it('when erp-sync connects with rediss+sentinel://:<password>@<sentinel>/<master name> and the CA trusted, then it reaches that master over TLS, checks its policy there, and what it writes is on the master', async () => {
    const untrust = trustCaInThisProcess(master.certificates.ca);
    const direct = new Redis({
      host: '127.0.0.1',
      port: master.port,
      password,
      tls: { ca: readFileSync(master.certificates.ca) },
      lazyConnect: true,
    });
    let redis: Redis | undefined;
    try {
      await checkRedisReachable(url, 10_000);
      redis = stateConnection(url);
      await assertNoEviction(redis);
      await redis.set('erp-sync-sentinel-tls-test', 'through the TLS sentinel');
      await direct.connect();
      expect(await direct.get('erp-sync-sentinel-tls-test')).toBe('through the TLS sentinel');
    } finally {
      direct.disconnect();
      await redis?.quit();
      untrust();
    }
  });

  it('when the CA is not trusted (no NODE_EXTRA_CA_CERTS), then the start check fails at once in one line saying the certificate is not trusted, without the password', async () => {
    const t0 = Date.now();
    const err = await checkRedisReachable(url, 10_000).catch((e: unknown) => e);
    const took = Date.now() - t0;
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as Error).message;
    console.info(`[redis sentinel tls] without the CA, after ${took} ms: ${message}`);
    expect(message).not.toContain('\n');
    expect(message).toMatch(
      new RegExp(
        `^cannot connect to Redis at rediss\\+sentinel://\\[Redacted\\]@127\\.0\\.0\\.1:${sentinel!.port}/${MASTER}: .*certificate`,
      ),
    );
    expect(message).toMatch(
      /the server's TLS certificate is not trusted: if a private CA signed it, set NODE_EXTRA_CA_CERTS=/,
    );
    expect(message).not.toContain(password);
    // A certificate refused is known at the first handshake: no waiting out the connect timeout.
    expect(took).toBeLessThan(10_000);
  });
});

/**
 * A Sentinel monitoring `master` (quorum 1) that listens on TLS only (`port 0`, `tls-port`) with the master's
 * certificates, and talks TLS to the master (`tls-replication yes`) with its password (`sentinel auth-pass`).
 * Its config file (which Sentinel rewrites) is in a temp dir of its own. Ready once the Sentinel reports the
 * master with the flag `master` alone: it starts out `master,disconnected`, and stays so while it cannot
 * reach the master over TLS or is refused the password.
 */
async function startTlsSentinel(master: LocalTlsRedis) {
  const dir = await mkdtemp(join(tmpdir(), 'erp-sync-sentinel-tls-'));
  const port = await freePort();
  let child: ReturnType<typeof spawnTlsRedisServer> | undefined;
  let client: Redis | undefined;
  const stop = async () => {
    client?.disconnect();
    if (child) await killChild(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const conf = join(dir, 'sentinel.conf');
    await writeFile(
      conf,
      `sentinel monitor ${MASTER} 127.0.0.1 ${master.port} 1\nsentinel auth-pass ${MASTER} ${master.password}\n`,
    );
    child = spawnTlsRedisServer(
      [
        ...[conf, '--sentinel'],
        ...['--port', '0', '--tls-port', String(port), '--bind', '127.0.0.1', '--dir', dir],
        ...tlsServerArgs(master.certificates),
        ...['--tls-replication', 'yes'],
      ],
      port,
      master.certificates,
      30_000,
    );
    await child.ready;
    const sentinelClient = new Redis({
      host: '127.0.0.1',
      port,
      tls: { ca: readFileSync(master.certificates.ca) },
      lazyConnect: true,
    });
    client = sentinelClient;
    sentinelClient.on('error', () => {});
    await sentinelClient.connect();
    await until(
      `the Sentinel on 127.0.0.1:${port} to reach ${MASTER} over TLS`,
      async () => {
        const fields = (await sentinelClient.call('SENTINEL', 'MASTER', MASTER)) as string[];
        const flags = fields[fields.indexOf('flags') + 1];
        if (flags !== 'master') throw new Error(`flags ${flags}`);
        return true;
      },
      30_000,
      50,
    );
    sentinelClient.disconnect();
    client = undefined;
    return { port, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
