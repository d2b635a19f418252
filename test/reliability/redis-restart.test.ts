import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/http/free-port.js';
import { pings } from '../../src/redis.js';
import { CLI, CONNECTION, HISTORY, type Harness, REPO_ROOT, startHarness, until } from '../support/harness.js';

/**
 * Commands survive Redis restarts. A Redis of the test's own (another port, append-only file on disk so
 * a restart keeps its data, as a production Redis would) is restarted while `erp-sync backfill` runs:
 * the command waits for it and carries on, exits 0, and every invoice is in billing.
 */
describe('given `erp-sync backfill` running on a Redis that keeps its data on disk', () => {
  let dir: string;
  let port: number;
  let redis: ChildProcess | undefined;
  let p: Harness;

  const startRedis = async () => {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--save',
        '',
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: 'ignore' },
    );
    await until('redis-server to answer', () => pings('127.0.0.1', port, 200), 10_000, 20);
    redis = child;
  };
  const stopRedis = async () => {
    const child = redis;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'redis-restart-'));
    port = await freePort();
    await startRedis();
    p = await startHarness({
      name: 'redis-restart',
      invoices: 400,
      customers: 20,
      redisUrl: `redis://127.0.0.1:${port}`,
    });
  });
  afterAll(async () => {
    await p?.close().catch(() => {});
    await stopRedis();
    await rm(dir, { recursive: true, force: true });
  });

  it('when Redis restarts mid-backfill, then the command waits for it, exits 0, and nothing is lost', async () => {
    const { rt } = p;
    const child = spawn(
      process.execPath,
      [
        CLI,
        'backfill',
        '--connection',
        CONNECTION,
        '--entity',
        'invoices',
        '--from',
        HISTORY.from,
        '--to',
        HISTORY.to,
        '--json',
        '--config',
        await p.configFile(),
      ],
      {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', ...p.secretEnv, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('exit', (c, s) => resolve([c, s])),
    );
    let downMs = 0;
    let code: number | null;
    let signal: NodeJS.Signals | null;
    try {
      await until(
        'a first part of the invoices in the ledger',
        async () => (await rt.ledger.count(CONNECTION, 'invoices')) >= 40,
        90_000,
        20,
      );
      // Redis goes away, and stays away until the command has noticed (it says so on stderr).
      const stoppedAt = Date.now();
      await stopRedis();
      await until('the command to notice Redis is gone', () => err.includes('Redis connection error'), 30_000, 20);
      await startRedis();
      downMs = Date.now() - stoppedAt;
      [code, signal] = await exited;
    } finally {
      child.kill('SIGKILL');
    }
    const r = { code, signal, out, err };

    expect(r.signal).toBeNull();
    expect(r.code, r.err).toBe(0);
    const summary = JSON.parse(r.out) as { enqueued: number; quarantinedTotal: number };
    expect(summary.quarantinedTotal).toBe(0);
    await until(
      'the test runtime back on Redis',
      async () => (await rt.ledger.count(CONNECTION, 'invoices')) > 0,
      30_000,
      100,
    );
    const result = await p.compareWithSource();
    expect(result.problems).toEqual([]);
    expect(result.inBilling).toBe(result.expected);
    console.info(
      `[redis restart] Redis down ${downMs} ms mid-backfill; backfill exited 0; ${result.inBilling}/${result.expected} invoices in billing, 0 lost; stderr said: ${JSON.stringify(r.err.trim().split('\n').slice(0, 2))}`,
    );
  }, 300_000);
});
