import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { validateSettings } from '../../connectors/registry.js';
import { loadConfig } from '../../src/config.js';
import { REPO_ROOT } from '../support/repo-paths.js';
import { requireBinary } from './support/require-binary.js';
import { run } from './support/run-command.js';

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  profiles?: string[];
  volumes?: Array<string | { type: string; source: string; target: string }>;
  ports?: string[];
  environment?: Record<string, string>;
  depends_on?: unknown;
  healthcheck?: unknown;
}
interface Compose {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

/** `docker-compose config` in a clean environment (no .env values leaking in from the test machine). */
const composeConfig = (bin: string, args: string[] = []) =>
  run(bin, [...args, 'config'], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' } });

/** Bind mounts (host path → container path) of a resolved compose file. */
function binds(c: Compose): Array<{ service: string; source: string; target: string }> {
  const out: Array<{ service: string; source: string; target: string }> = [];
  for (const [service, s] of Object.entries(c.services)) {
    for (const v of s.volumes ?? []) {
      if (typeof v === 'string') {
        const [source, target] = v.split(':');
        if (source && target && (isAbsolute(source) || source.startsWith('.'))) out.push({ service, source, target });
      } else if (v.type === 'bind') out.push({ service, source: v.source, target: v.target });
    }
  }
  return out;
}

describe('docker-compose.yml', () => {
  let bin: string;
  let resolved: Compose;
  const raw = () => parseYaml(readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8')) as Compose;

  beforeAll(() => {
    bin = requireBinary('docker-compose', 'docker-compose');
    const r = composeConfig(bin, ['--profile', 'sandbox']);
    if (r.status !== 0) throw new Error(`docker-compose config failed:\n${r.output}`);
    resolved = parseYaml(r.stdout) as Compose;
  });

  it('is valid: `docker-compose config -q` passes, with and without the sandbox profile', () => {
    for (const args of [[], ['--profile', 'sandbox']]) {
      const r = run(bin, [...args, 'config', '-q'], {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
      });
      expect(r.status, `${args.join(' ')}: ${r.output}`).toBe(0);
    }
  });

  it('mounts only paths that exist in the repository (files as files, directories as directories)', () => {
    const mounts = binds(resolved);
    expect(mounts.map((m) => `${m.service}:${m.target}`).sort()).toEqual([
      'grafana:/etc/grafana/provisioning',
      'grafana:/var/lib/grafana/dashboards',
      'prometheus:/etc/prometheus/prometheus.yml',
      'prometheus:/etc/prometheus/rules',
      'worker:/etc/erp-sync/erp-sync.yaml',
    ]);
    for (const m of mounts) {
      expect(existsSync(m.source), `${m.service} mounts ${m.source}, which does not exist`).toBe(true);
      expect(m.source.startsWith(REPO_ROOT), `${m.source} is outside the repository`).toBe(true);
      const isFile = /\.(ya?ml|json)$/.test(m.target);
      expect(statSync(m.source).isFile(), `${m.source} should be a ${isFile ? 'file' : 'directory'}`).toBe(isFile);
    }
  });

  it('runs Redis with append-only persistence (fsync every second), a maxmemory and noeviction, on a named volume', () => {
    const redis = raw().services.redis!;
    const cmd = redis.command!.join(' ');
    expect(cmd).toMatch(/--appendonly yes/);
    expect(cmd).toMatch(/--appendfsync everysec/);
    expect(cmd).toMatch(/--maxmemory-policy noeviction/);
    expect(cmd).toMatch(/--maxmemory \$\{REDIS_MAXMEMORY:-1gb\}/);
    expect(redis.volumes).toContain('redis-data:/data');
    expect(redis.healthcheck).toBeTruthy();
  });

  it('runs the worker from the Dockerfile with its config mounted, after Redis is healthy, and the sandbox only under its profile', () => {
    const s = resolved.services;
    expect(Object.keys(s).sort()).toEqual(['grafana', 'prometheus', 'redis', 'sandbox', 'worker']);
    expect(s.worker!.build).toBeTruthy();
    expect(s.worker!.command).toEqual(['worker', '--config', '/etc/erp-sync/erp-sync.yaml']);
    expect(s.worker!.environment?.REDIS_URL).toBe('redis://redis:6379');
    expect(s.worker!.depends_on).toMatchObject({ redis: { condition: 'service_healthy' } });
    expect(s.worker!.profiles).toBeUndefined();
    expect(s.sandbox!.profiles).toEqual(['sandbox']);
    // The ERP emulators post their webhooks to the worker's listener (ops/compose/erp-sync.sandbox.yaml).
    expect(s.sandbox!.command).toEqual([
      'sandbox',
      'all',
      '--host',
      '0.0.0.0',
      '--port',
      '4010',
      '--webhooks-host',
      'worker',
      '--webhooks-port',
      '9465',
    ]);
    // `docker compose up` without --profile starts every service that has no profile: all but the sandbox
    expect(
      Object.entries(s)
        .filter(([, v]) => v.profiles)
        .map(([k]) => k),
    ).toEqual(['sandbox']);
    // nothing depends on the sandbox (a dependency on a profiled service fails without the profile)
    expect(JSON.stringify(Object.values(s).map((v) => v.depends_on ?? null))).not.toContain('sandbox');
  });

  it('wires Prometheus and Grafana to each other and to the worker: scrape job, port, rule files, datasource, dashboards', () => {
    const prom = parseYaml(readFileSync(join(REPO_ROOT, 'ops/prometheus/prometheus.yml'), 'utf8')) as {
      rule_files: string[];
      scrape_configs: Array<{ job_name: string; dns_sd_configs?: Array<{ names: string[]; port: number }> }>;
    };
    const job = prom.scrape_configs.find((j) => j.job_name === 'erp-sync')!; // the rules select job="erp-sync"
    expect(job.dns_sd_configs![0]).toMatchObject({ names: ['worker'], port: 9464 });
    expect(prom.rule_files).toEqual(['rules/*.rules.yml']); // relative to /etc/prometheus, where rules/ is mounted
    const provider = parseYaml(
      readFileSync(join(REPO_ROOT, 'ops/grafana/provisioning/dashboards/erp-sync.yml'), 'utf8'),
    ) as {
      providers: Array<{ options: { path: string } }>;
    };
    const dashMount = binds(resolved).find((m) => m.source.endsWith('ops/grafana/dashboards'))!;
    expect(provider.providers[0]!.options.path).toBe(dashMount.target);
    expect(existsSync(join(REPO_ROOT, 'ops/grafana/dashboards/erp-sync.json'))).toBe(true);
  });

  it('mounts, by default, a worker config that is valid and points at the sandbox service on the ports `erp-sync sandbox` uses', async () => {
    const mount = binds(resolved).find((m) => m.target === '/etc/erp-sync/erp-sync.yaml')!;
    const config = await loadConfig(mount.source, { REDIS_URL: 'redis://redis:6379' }, validateSettings);
    expect(config.billing.url).toBe('http://sandbox:4010');
    expect(config.http).toMatchObject({ host: '0.0.0.0', port: 9464 });
    expect(config.http.adminToken).toBeUndefined();
    expect(config.redis.url).toBe('redis://redis:6379');
    expect(config.connections.map((c) => (c.settings as { baseUrl?: string }).baseUrl)).toEqual([
      'http://sandbox:4011/books/v3',
      'http://sandbox:4012',
      'http://sandbox:4013/api.xro/2.0',
    ]);
  });
});

describe('Dockerfile', () => {
  const text = () => readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');
  const stages = () =>
    text()
      .split(/^FROM /m)
      .slice(1);

  it('is multi-stage: production dependencies only, compiled in a build stage, copied into the runtime stage', () => {
    expect(stages().length).toBeGreaterThanOrEqual(3);
    expect(text()).toMatch(/npm ci --omit=dev/);
    const runtime = stages().at(-1)!;
    expect(runtime).toMatch(/COPY --from=deps \/app\/node_modules/);
    expect(runtime).toMatch(/COPY --from=build \/app\/dist/);
    expect(runtime).not.toMatch(/npm (ci|install)/);
    expect(runtime).toMatch(/NODE_ENV=production/);
  });

  it('runs as the unprivileged node user, with a healthcheck on /healthz, and the CLI as entrypoint', () => {
    const runtime = stages().at(-1)!;
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*\n?.*\/healthz/m);
    expect(runtime).toMatch(/ENTRYPOINT \["node", "dist\/cli\/main.js"\]/);
    expect(runtime).toMatch(/CMD \["worker", "--config", "\/etc\/erp-sync\/erp-sync.yaml"\]/);
  });

  it('leaves the heap sizing to the CLI (cli/heap-sizing.ts): no V8 heap flag in the image to override it', () => {
    expect(stages().at(-1)!).not.toMatch(/max-old-space-size|max-semi-space-size/);
  });

  it('copies every source directory the build compiles (tsconfig.build.json include)', () => {
    const include = (JSON.parse(readFileSync(join(REPO_ROOT, 'tsconfig.build.json'), 'utf8')) as { include: string[] })
      .include;
    for (const dir of include) expect(text(), dir).toMatch(new RegExp(`^COPY ${dir} \\./${dir}$`, 'm'));
  });

  it('has a .dockerignore that keeps node_modules, dist, .git and secrets (.env) out of the build context', () => {
    const ignore = readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim());
    for (const p of ['node_modules', 'dist', '.git', '.env', '.env.*', 'erp-sync.yaml']) expect(ignore, p).toContain(p);
  });
});
