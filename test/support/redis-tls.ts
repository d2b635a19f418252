import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { freePort } from '../../src/http/free-port.js';
import { createTlsCertificates, type TlsCertificates } from './tls-certificates.js';
import { until } from './until.js';
import { redisDataArgs } from './redis-server-args.js';

export interface LocalTlsRedis {
  /** `rediss://:<password>@127.0.0.1:<port>`: what config `redis.url` / REDIS_URL take. */
  url: string;
  port: number;
  password: string;
  /** The CA that signed the server's certificate, and the certificate and key themselves. */
  certificates: TlsCertificates;
  stop(): Promise<void>;
}

/**
 * One real redis-server that speaks TLS only (`--port 0`: no plain-text port) on a free loopback port,
 * with a certificate from a throwaway CA (createTlsCertificates) and `requirepass`; ephemeral (no RDB, no
 * AOF, noeviction) with its files in a temp dir. Client certificates are not asked for unless
 * `authClients` (`--tls-auth-clients yes`). Ready once it answers a PING over TLS (within `readyTimeoutMs`,
 * 10 s unless given); stop() kills it and removes the temp dir.
 */
export async function startTlsRedis(options: {
  password: string;
  authClients?: boolean;
  readyTimeoutMs?: number;
}): Promise<LocalTlsRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'erp-sync-tls-'));
  let child: ChildProcess | undefined;
  const stop = async () => {
    if (child) await killChild(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const certificates = await createTlsCertificates(dir);
    const port = await freePort();
    const server = spawnTlsRedisServer(
      [
        ...['--port', '0', '--tls-port', String(port), '--bind', '127.0.0.1'],
        ...tlsServerArgs(certificates, options.authClients),
        ...['--requirepass', options.password],
        ...redisDataArgs(dir),
      ],
      port,
      certificates,
      options.readyTimeoutMs,
    );
    child = server;
    await server.ready;
    return {
      url: `rediss://:${encodeURIComponent(options.password)}@127.0.0.1:${port}`,
      port,
      password: options.password,
      certificates,
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** The redis-server options of a TLS listener with these certificates (https://redis.io/docs/latest/operate/oss_and_stack/management/security/encryption/). */
export function tlsServerArgs(certificates: TlsCertificates, authClients = false): string[] {
  return [
    ...[
      '--tls-cert-file',
      certificates.cert,
      '--tls-key-file',
      certificates.key,
      '--tls-ca-cert-file',
      certificates.ca,
    ],
    ...['--tls-auth-clients', authClients ? 'yes' : 'no'],
  ];
}

type RedisServerChild = ChildProcess & { ready: Promise<void> };

/**
 * `redis-server <args>` whose `ready` resolves once it answers on `port` over TLS (polled for up to
 * `readyTimeoutMs`), and rejects with what it printed if it exits first (a bad option, a port already
 * taken), rather than waiting out the poll.
 */
export function spawnTlsRedisServer(
  args: string[],
  port: number,
  certificates: TlsCertificates,
  readyTimeoutMs = 10_000,
): RedisServerChild {
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr.on('data', (b: Buffer) => (output += b.toString()));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code, signal) =>
      reject(new Error(`redis-server on ${port} exited (${code ?? signal}) before it was ready:\n${output}`)),
    ),
  );
  const answers = until(
    `redis-server on 127.0.0.1:${port} over TLS`,
    () => tlsPings(port, certificates),
    readyTimeoutMs,
    20,
  );
  // The race handles both: a later exit (stop()) or a poll still running after an early exit rejects nothing unhandled.
  const ready = Promise.race([answers, exited]).then(() => {});
  return Object.assign(child, { ready });
}

export async function killChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

/**
 * PING over TLS, trusting only the test CA, no client library, no retries. Any reply counts (`-NOAUTH` from a
 * server with a password too): the server is up and its certificate verifies against the CA.
 */
export function tlsPings(port: number, certificates: TlsCertificates, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const [ca, cert, key] = [certificates.ca, certificates.cert, certificates.key].map((f) => readFileSync(f));
    // The server's own certificate doubles as a client certificate, for a server that requires one.
    const socket = tlsConnect({ host: '127.0.0.1', port, ca, cert, key });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('secureConnect', () => socket.write('PING\r\n'));
    socket.on('data', (d: Buffer) => done(/^[+-]/.test(d.toString())));
    socket.on('error', () => done(false));
  });
}
