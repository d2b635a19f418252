import { spawn, type ChildProcess } from 'node:child_process';
import type { Role } from '../../app/worker-service.js';
import { compileCache } from './compile-cache.js';
import { CLI, REPO_ROOT } from './repo-paths.js';

/** A real `erp-sync worker` in a child process. */
export interface ChildWorker {
  proc: ChildProcess;
  /** Everything it wrote so far (stdout and stderr, interleaved as received). */
  output(): string;
  /** Resolves with how it ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends a signal by pid (only to this child). */
  kill(signal: NodeJS.Signals): void;
  /** Resolves once its output contains `text` (checked on each chunk); rejects if it exits first or after `timeoutMs` (if given). */
  waitForOutput(text: string, timeoutMs?: number): Promise<void>;
}

/**
 * `node dist/cli/main.js worker --config <file> --roles <roles> --http-port 0` with a bare environment
 * (PATH, LOG_LEVEL=info, then `env`: the secrets the config file references). Resolves once it logged
 * "worker started", rejects if it exits first: an event, not a time (node alone takes 20 s to start on a
 * loaded machine); the test's own timeout bounds a worker that never starts.
 */
export async function spawnChildWorker(
  configFile: string,
  roles: readonly Role[],
  env: Record<string, string>,
): Promise<ChildWorker> {
  const proc = spawn(
    process.execPath,
    [CLI, 'worker', '--config', configFile, '--roles', roles.join(','), '--http-port', '0'],
    {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...compileCache(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    proc.once('exit', (code, signal) => done({ code, signal })),
  );
  let ended = false;
  void exited.then(() => (ended = true));
  const child: ChildWorker = {
    proc,
    output: () => out,
    exited,
    kill: (signal) => {
      if (!ended && proc.pid) process.kill(proc.pid, signal);
    },
    waitForOutput: (text, timeoutMs) =>
      new Promise<void>((found, failed) => {
        const timer =
          timeoutMs === undefined
            ? undefined
            : setTimeout(
                () => done(new Error(`the child worker did not write ${text} within ${timeoutMs} ms:\n${out}`)),
                timeoutMs,
              );
        const onOutput = () => {
          if (out.includes(text)) done();
        };
        const onExit = () => done(new Error(`the child worker exited before it wrote ${text}:\n${out}`));
        const done = (err?: Error) => {
          clearTimeout(timer);
          proc.stdout!.off('data', onOutput);
          proc.stderr!.off('data', onOutput);
          proc.off('exit', onExit);
          if (err) failed(err);
          else found();
        };
        proc.stdout!.on('data', onOutput);
        proc.stderr!.on('data', onOutput);
        proc.once('exit', onExit);
        if (out.includes(text)) done();
        else if (ended) onExit();
      }),
  };
  try {
    await child.waitForOutput('"worker started"');
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  return child;
}
