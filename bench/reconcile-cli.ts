import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { ZOHO_SANDBOX_DEFAULTS } from '../sandbox/zoho-books/index.js';
import { watchPeakRss } from './proc-rss.js';

const cli = fileURLToPath(new URL('../cli/main.js', import.meta.url));

/**
 * The benchmarks' config: one Zoho connection `bench` (never read: its vendor URL is closed) writing to
 * billing at `billingUrl`; `overrides` are merged into the `billing` section and make the `sync` one.
 */
export function reconcileBenchConfig(
  billingUrl: string,
  key: string,
  redisUrl: string,
  prefix: string,
  overrides: { billing?: Record<string, unknown>; sync?: Record<string, unknown> } = {},
) {
  const d = ZOHO_SANDBOX_DEFAULTS;
  return {
    billing: {
      url: billingUrl,
      apiKey: key,
      rateLimit: { max: 1000, durationMs: 1000 },
      // A listing by invoice date scans every invoice the emulator holds (about 1.4 s at 1,000,000 on an idle
      // core, many times that on a shared machine): past the default 15 s timeout, the bench would measure retries.
      timeoutMs: 120_000,
      ...overrides.billing,
    },
    redis: { url: redisUrl, prefix },
    ...(overrides.sync ? { sync: overrides.sync } : {}),
    connections: [
      {
        id: 'bench',
        system: 'zoho-books',
        originSource: 'EXTERNAL_SYSTEM_A',
        settings: {
          organizationId: d.organizationId,
          clientId: d.clientId,
          clientSecret: d.clientSecret,
          refreshToken: d.refreshToken,
          baseUrl: 'http://127.0.0.1:1/books/v3',
        },
      },
    ],
  };
}

/** The config above in a YAML file (what the CLI reads). */
export async function writeBenchConfig(config: object): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'erp-sync-bench-')), 'config.yaml');
  await writeFile(file, stringify(config));
  return file;
}

export interface CliRun<R> {
  code: number;
  seconds: number;
  peakMb: number;
  result?: R;
  stderr: string;
}

/** The real `erp-sync reconcile … --json` in its own process: its exit code, wall time, peak RSS (VmHWM every 200 ms) and JSON result. */
export async function runReconcileCli<R>(config: string, args: string[]): Promise<CliRun<R>> {
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_CHILD_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
      cli,
      'reconcile',
      '--config',
      config,
      '--connection',
      'bench',
      ...args,
      '--json',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOG_LEVEL: 'error' } },
  );
  const rss = watchPeakRss(child.pid!);
  let out = '';
  let err = '';
  child.stdout.on('data', (b) => (out += b));
  child.stderr.on('data', (b) => (err += b));
  const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
  const peakMb = rss.stop() / 1024;
  return {
    code,
    seconds: (Date.now() - started) / 1000,
    peakMb,
    result: out ? (JSON.parse(out) as R) : undefined,
    stderr: err,
  };
}
