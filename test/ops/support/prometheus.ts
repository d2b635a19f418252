import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { freePort } from '../../../src/http/free-port.js';
import { until } from '../../support/until.js';
import { requireBinary } from './require-binary.js';

export interface RuleState {
  name: string;
  type: 'alerting' | 'recording';
  state?: 'inactive' | 'pending' | 'firing';
  health: string;
  lastError?: string;
  alerts?: Array<{ labels: Record<string, string>; annotations: Record<string, string>; state: string; value: string }>;
}

/**
 * A real Prometheus server (the Debian `prometheus` binary) on a free loopback port, with a temporary
 * config: job `erp-sync` scraping `targets` every second, and `ruleFiles` evaluated every second.
 */
export async function startPrometheus(options: {
  targets: string[];
  ruleFiles: string[];
  interval?: string;
  externalLabels?: Record<string, string>;
}) {
  const bin = requireBinary('prometheus', 'prometheus');
  const dir = await mkdtemp(join(tmpdir(), 'erp-sync-prom-'));
  const port = await freePort();
  const interval = options.interval ?? '1s';
  await writeFile(
    join(dir, 'prometheus.yml'),
    toYaml({
      global: {
        scrape_interval: interval,
        evaluation_interval: interval,
        scrape_timeout: interval,
        external_labels: options.externalLabels ?? {},
      },
      rule_files: options.ruleFiles,
      scrape_configs: [
        { job_name: 'erp-sync', metrics_path: '/metrics', static_configs: [{ targets: options.targets }] },
      ],
    }),
  );
  let log = '';
  const proc: ChildProcess = spawn(
    bin,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  proc.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  let exited = false;
  const exit = new Promise<void>((done) => proc.once('exit', () => ((exited = true), done())));
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    if (!exited && proc.pid) process.kill(proc.pid, 'SIGTERM');
    await Promise.race([exit, new Promise((r) => setTimeout(r, 5000))]);
    if (!exited && proc.pid) process.kill(proc.pid, 'SIGKILL');
    await rm(dir, { recursive: true, force: true });
  };
  const api = async <T>(path: string): Promise<T> => {
    const r = await fetch(`${url}${path}`);
    const body = (await r.json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`${path}: ${body.error ?? r.status}`);
    return body.data;
  };
  try {
    await until(
      `prometheus to answer on ${url} (log: ${log.slice(-400)})`,
      async () => {
        if (exited) throw new Error(`prometheus exited:\n${log}`);
        return (await fetch(`${url}/-/ready`)).ok;
      },
      20_000,
    );
  } catch (e) {
    await close();
    throw e;
  }
  return {
    url,
    log: () => log,
    close,
    /** Instant query; the result vector. */
    query: (expr: string) =>
      api<{ resultType: string; result: Array<{ metric: Record<string, string>; value: [number, string] }> }>(
        `/api/v1/query?query=${encodeURIComponent(expr)}`,
      ),
    /** Every rule with its state and active alerts. */
    async rules(): Promise<RuleState[]> {
      const d = await api<{ groups: Array<{ rules: RuleState[] }> }>('/api/v1/rules');
      return d.groups.flatMap((g) => g.rules);
    },
    async rule(name: string): Promise<RuleState> {
      const r = (await this.rules()).find((x) => x.name === name);
      if (!r) throw new Error(`no rule ${name} loaded`);
      return r;
    },
    targets: () =>
      api<{
        activeTargets: Array<{ labels: Record<string, string>; health: string; lastError: string; scrapeUrl: string }>;
      }>('/api/v1/targets'),
  };
}
