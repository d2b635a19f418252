import { execFile, spawnSync } from 'node:child_process';
import { REPO_ROOT } from '../../support/repo-paths.js';

/** Runs a command; returns its status and output (never throws for a non-zero exit). */
export function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd ?? REPO_ROOT,
    env: opts.env ?? process.env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return {
    status: r.status,
    stdout: r.stdout ?? '',
    stderr: r.stderr ?? '',
    output: `${r.stdout ?? ''}${r.stderr ?? ''}`,
    error: r.error,
  };
}

/** `run`, without blocking the event loop (for running several at once). */
export function runAsync(
  cmd: string,
  args: string[],
  opts: { cwd?: string } = {},
): Promise<{ status: number | null; output: string }> {
  return new Promise((done) => {
    execFile(cmd, args, { cwd: opts.cwd ?? REPO_ROOT, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = (err as { code?: unknown } | null)?.code;
      done({ status: err ? (typeof code === 'number' ? code : 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}
