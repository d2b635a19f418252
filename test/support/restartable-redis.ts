import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/http/free-port.js';
import { pings } from '../../src/redis.js';
import { until } from './until.js';
import { redisDataArgs } from './redis-server-args.js';

export interface RestartableRedis {
  url: string;
  port: number;
  /** Starts redis-server (again: it reads its append-only file back) and resolves once it answers PING; nothing if it runs. */
  start(): Promise<void>;
  /** Stops it (SIGTERM) and resolves once the process has exited; nothing if it is not running. */
  stop(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open and nothing answers, as behind a network partition. */
  freeze(): void;
  /** Lets a frozen one go on (SIGCONT). */
  thaw(): void;
  /** Stops it and removes its directory. */
  close(): Promise<void>;
}

/**
 * A redis-server of the test's own, on a free port, that the test can stop and start again: its data
 * lives in an append-only file (fsync on every write) in a temporary directory, so a restart keeps it,
 * as a production Redis with AOF would. `noeviction`, as the worker requires.
 */
export async function restartableRedis(name: string): Promise<RestartableRedis> {
  const dir = await mkdtemp(join(tmpdir(), `${name}-`));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  const stop = async () => {
    const c = child;
    if (!c || !running()) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await exited;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start: async () => {
      if (running()) return;
      const args = ['--port', String(port), '--bind', '127.0.0.1', ...redisDataArgs(dir, { appendOnly: true })];
      child = spawn('redis-server', args, { stdio: 'ignore' });
      await until('redis-server to answer', () => pings('127.0.0.1', port, 200), 10_000, 20);
    },
    stop,
    freeze: () => void child?.kill('SIGSTOP'),
    thaw: () => void child?.kill('SIGCONT'),
    close: async () => {
      if (running()) child!.kill('SIGCONT');
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
