import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { compileCache } from './compile-cache.js';
import { CLI, REPO_ROOT } from './repo-paths.js';

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

/**
 * The built CLI (`node dist/cli/main.js ...args`) as a user runs it, with a bare environment (PATH,
 * LOG_LEVEL=silent, then `env`). A command still running after `timeoutMs` is killed (SIGKILL): a
 * test that expects a quick exit then fails on `signal` instead of hanging.
 */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CliRun> {
  return spawnCli(args, { env: options.env, timeoutMs: options.timeoutMs ?? 20_000 }).exit;
}

/** What a bad-input error looks like: exit 2 and one line on stderr, no stack trace. */
export function expectOneLineError(r: CliRun): string {
  const text = r.err.trim();
  if (r.code !== 2 || text.includes('\n') || /\bat .+:\d+:\d+/.test(text))
    throw new Error(
      `expected exit 2 with a one-line error, got exit ${r.code ?? r.signal}:\n--- stderr\n${r.err}--- stdout\n${r.out}`,
    );
  return text;
}

/** A TCP server holding a loopback port (so a command that wants it finds it in use). */
export async function occupyPort(port = 0): Promise<{ port: number; server: Server; close(): Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A CLI child still running: its output so far, a wait for a line of it, and its end. */
export interface RunningCli {
  out(): string;
  err(): string;
  /** Resolves with the first match of `pattern` in stdout (waiting for more output); rejects if the command ends first. */
  waitForOutput(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Sends a signal to the command (only while it runs). */
  kill(signal: NodeJS.Signals): void;
  exit: Promise<CliRun>;
}

/**
 * The built CLI started like `runCli`, for a command a test talks to while it runs (`connect` prints a URL
 * and waits for the browser). Killed (SIGKILL) after `timeoutMs`.
 */
export function spawnCli(
  args: string[],
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): RunningCli {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...compileCache(), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (err += b.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
  const exit = new Promise<CliRun>((resolve) =>
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      // stdout may still hold data after 'exit'; 'close' follows once the pipes are drained.
      child.on('close', () => resolve({ code, signal, out, err }));
    }),
  );
  return {
    out: () => out,
    err: () => err,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    exit,
    waitForOutput: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const m = out.match(pattern);
          if (!m) return false;
          child.stdout.off('data', check);
          resolve(m);
          return true;
        };
        if (check()) return;
        child.stdout.on('data', check);
        void exit.then((r) => {
          if (!check())
            reject(
              new Error(
                `the command ended (exit ${r.code ?? r.signal}) before printing ${pattern}:\n--- stdout\n${r.out}--- stderr\n${r.err}`,
              ),
            );
        });
      }),
  };
}
