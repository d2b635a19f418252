import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis, type RedisOptions } from 'ioredis';
import { freePort } from '../../src/http/free-port.js';
import { pings } from '../../src/redis.js';
import { killChild, spawnTlsRedisServer, tlsServerArgs } from './redis-tls.js';
import { createTlsCertificates, type TlsCertificates } from './tls-certificates.js';
import { until } from './until.js';
import { redisDataArgs } from './redis-server-args.js';

const run = promisify(execFile);

export interface LocalRedisCluster {
  /**
   * `redis+cluster://127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3` (with `tls`: `rediss+cluster://:<password>@…`):
   * what config `redis.url` / REDIS_URL take.
   */
  url: string;
  /** With `tls`: the CA that signed the nodes' certificate, and that certificate and its key. */
  certificates?: TlsCertificates;
  ports: number[];
  /** Which master (by port) serves `slot` now (CLUSTER SLOTS). */
  portOfSlot(slot: number): Promise<number>;
  /** CLUSTER KEYSLOT of a key, asked of the cluster itself. */
  keySlot(key: string): Promise<number>;
  stop(): Promise<void>;
}

/**
 * A real Redis Cluster of three masters, no replicas, for tests: `redis-server` from PATH in cluster mode
 * on free loopback ports (ephemeral: no RDB, no AOF, noeviction, its nodes.conf in a temp dir), joined
 * by `redis-cli --cluster create` (https://redis.io/docs/latest/operate/oss_and_stack/management/scaling/),
 * ready once every node says `cluster_state:ok`. stop() kills the three servers and removes the temp dir.
 *
 * With `tls`, every node speaks TLS only (`--port 0`), on the cluster bus too (`--tls-cluster yes`, where
 * each node presents its certificate to the others and checks theirs), with a certificate from a
 * throwaway CA (createTlsCertificates) and `requirepass` `tls.password`; clients are not asked for one.
 */
export async function startRedisCluster(options: { tls?: { password: string } } = {}): Promise<LocalRedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'erp-sync-cluster-'));
  const tls = options.tls;
  const children: ChildProcess[] = [];
  const ports: number[] = [];
  const stop = async () => {
    await Promise.all(children.map(killChild));
    await rm(dir, { recursive: true, force: true });
  };
  let certificates: TlsCertificates | undefined;
  // How the test reaches a node (ioredis): over TLS trusting the test CA, with the password, when `tls`.
  const nodeOptions = (port: number): RedisOptions => ({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    ...(certificates && tls ? { password: tls.password, tls: { ca: readFileSync(certificates.ca) } } : {}),
  });
  try {
    if (tls) certificates = await createTlsCertificates(dir);
    for (let i = 0; i < 3; i++) {
      // Each port is taken before the next is asked for, so freePort does not hand the same one twice.
      const port = await freePort();
      const args = [
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(dir, `nodes-${port}.conf`),
      ];
      args.push(...redisDataArgs(dir), '--cluster-node-timeout', '5000');
      ports.push(port);
      if (certificates && tls) {
        args.push(
          '--port',
          '0',
          '--tls-port',
          String(port),
          '--tls-cluster',
          'yes',
          '--tls-replication',
          'yes',
          ...tlsServerArgs(certificates),
        );
        args.push('--requirepass', tls.password, '--masterauth', tls.password);
        const child = spawnTlsRedisServer(args, port, certificates);
        children.push(child);
        await child.ready;
      } else {
        args.push('--port', String(port));
        const child = spawn('redis-server', args, { stdio: 'ignore' });
        children.push(child);
        await until(`redis-server on 127.0.0.1:${port}`, () => pings('127.0.0.1', port, 200), 10_000, 20);
      }
    }
    const cli = certificates ? ['--tls', '--cacert', certificates.ca] : [];
    // REDISCLI_AUTH rather than -a, which redis-cli warns about on stderr.
    await run(
      'redis-cli',
      [
        ...cli,
        '--cluster',
        'create',
        ...ports.map((p) => `127.0.0.1:${p}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ],
      {
        env: { ...process.env, ...(tls ? { REDISCLI_AUTH: tls.password } : {}) },
        timeout: 60_000,
      },
    );
    // `--cluster create` returns once the slots are assigned; each node reports ok once it has heard of the others.
    for (const port of ports) {
      const r = new Redis(nodeOptions(port));
      try {
        await r.connect();
        await until(
          `cluster_state:ok on ${port}`,
          async () => /cluster_state:ok/.test(await r.cluster('INFO')),
          20_000,
          20,
        );
      } finally {
        r.disconnect();
      }
    }
  } catch (e) {
    await stop();
    throw e;
  }
  const ask = async <T>(f: (r: Redis) => Promise<T>): Promise<T> => {
    const r = new Redis(nodeOptions(ports[0]!));
    try {
      await r.connect();
      return await f(r);
    } finally {
      r.disconnect();
    }
  };
  return {
    url: `${tls ? `rediss+cluster://:${encodeURIComponent(tls.password)}@` : 'redis+cluster://'}${ports.map((p) => `127.0.0.1:${p}`).join(',')}`,
    ports,
    certificates,
    keySlot: (key) => ask(async (r) => Number(await r.cluster('KEYSLOT', key))),
    portOfSlot: (slot) =>
      ask(async (r) => {
        // Each entry: [first slot, last slot, [host, port, id], replicas...].
        const ranges = await r.cluster('SLOTS');
        const range = ranges.find(([from, to]) => slot >= from && slot <= to);
        if (!range) throw new Error(`slot ${slot} is served by no node`);
        return Number(range[2]![1]);
      }),
    stop,
  };
}
