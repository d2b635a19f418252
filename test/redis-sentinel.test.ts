import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/http/free-port.js';
import { assertNoEviction, checkRedisReachable, pings, stateConnection } from '../src/redis.js';
import { until } from './support/until.js';

/**
 * A Sentinel-managed master through `redis+sentinel://`: a real redis-server and a real Sentinel
 * (`redis-server <conf> --sentinel`, https://redis.io/docs/latest/operate/oss_and_stack/management/sentinel/)
 * on loopback; the client asks the Sentinel where the master is and talks to it.
 */
describe('given a Redis master watched by a Sentinel', () => {
  const children: ChildProcess[] = [];
  let dir: string;
  let url: string;
  let masterPort: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'erp-sync-sentinel-'));
    masterPort = await freePort();
    children.push(
      spawn(
        'redis-server',
        [
          '--port',
          String(masterPort),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          '--maxmemory-policy',
          'noeviction',
        ],
        {
          stdio: 'ignore',
        },
      ),
    );
    await until('the master', () => pings('127.0.0.1', masterPort, 200), 10_000, 20);
    const sentinelPort = await freePort();
    const conf = join(dir, 'sentinel.conf');
    await writeFile(
      conf,
      `port ${sentinelPort}\nbind 127.0.0.1\ndir ${dir}\nsentinel monitor erpmaster 127.0.0.1 ${masterPort} 1\n`,
    );
    children.push(spawn('redis-server', [conf, '--sentinel'], { stdio: 'ignore' }));
    await until('the sentinel', () => pings('127.0.0.1', sentinelPort, 200), 10_000, 20);
    url = `redis+sentinel://127.0.0.1:${sentinelPort}/erpmaster`;
  }, 30_000);
  afterAll(async () => {
    for (const c of children) {
      if (c.exitCode !== null || c.signalCode !== null) continue;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await exited;
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('when erp-sync connects with redis+sentinel://…/<master name>, then it reaches that master and checks its policy there', async () => {
    await checkRedisReachable(url);
    const redis = stateConnection(url);
    try {
      await assertNoEviction(redis);
      await redis.set('erp-sync-sentinel-test', 'through the sentinel');
      const direct = new Redis({ host: '127.0.0.1', port: masterPort, lazyConnect: true });
      await direct.connect();
      expect(await direct.get('erp-sync-sentinel-test')).toBe('through the sentinel');
      direct.disconnect();
    } finally {
      await redis.quit();
    }
  });

  it('when the master name is wrong, then the start check fails in one line', async () => {
    await expect(checkRedisReachable(url.replace('erpmaster', 'nosuchmaster'), 1000)).rejects.toThrow(
      /cannot connect to Redis at redis\+sentinel:/,
    );
  });
});
