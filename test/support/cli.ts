import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { onTestFinished } from 'vitest';
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
 * LOG_LEVEL=silent, then `env`). Killed (SIGKILL) when it is still running as the test that started it
 * ends, or after `timeoutMs` when given (see spawnCli).
 */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CliRun> {
  return spawnCli(args, options).exit;
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
 * and waits for the browser). Killed (SIGKILL) after `timeoutMs` when given: a test about how soon a command
 * ends says so. Otherwise a command still running is killed as its test ends (passed, failed or timed out),
 * so the test's own timeout bounds a hang: a fixed guard here would fail commands that are only slow to
 * start on a loaded machine (20 s was reached by `erp-sync worker --http-port 70000`). Outside a test (a
 * beforeAll) it is killed after the hook timeout.
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
  const killNow = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const timer =
    options.timeoutMs === undefined && endsWithTheTest(killNow)
      ? undefined
      : setTimeout(killNow, options.timeoutMs ?? HOOK_TIMEOUT_MS);
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

/** vitest.config.ts's hookTimeout: how long a command started outside a test may run. */
const HOOK_TIMEOUT_MS = 60_000;

/** Registers `end` to run when the current test ends; false outside a test (a hook), where vitest refuses it. */
function endsWithTheTest(end: () => void): boolean {
  try {
    onTestFinished(end);
    return true;
  } catch {
    return false;
  }
}
