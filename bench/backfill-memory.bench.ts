import { fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { ZOHO_SANDBOX_DEFAULTS } from '../sandbox/zoho-books/index.js';
import { stateKeys } from '../src/pipeline/keys.js';
import { deleteKeysWithPrefix, resolveRedis, stateConnection } from '../src/redis.js';
import { machine } from './bench-utils.js';
import { forkBillingEmulator } from './fork-emulator.js';
import { watchPeakRss } from './proc-rss.js';
import { redisBytes, redisBytesRows } from './redis-bytes.js';

/**
 * (c) Peak RSS of the worker for backfills of 20,000 and 200,000 invoices: the real `erp-sync backfill`
 * command (workers in-process), against the Zoho and billing emulators in their own processes, on one
 * Redis. Memory should stay flat: pages are streamed, upserts wait in Redis, and a pull waits while
 * the upsert backlog is above the high-water mark.
 *
 * (d) Redis bytes per synced record: once the backfill has exited, MEMORY USAGE of every key of the run's
 * prefix (ledger, indexes, job remnants, …), by family, divided by the invoices synced.
 *
 *   npm run bench:memory [-- 20000 200000]
 */
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const SIZES = sizes.length ? sizes : [20_000, 200_000];
const KEY = 'bench-key';
const cli = fileURLToPath(new URL('../cli/main.js', import.meta.url));

async function forkZoho(records: number) {
  const child = fork(fileURLToPath(new URL('./zoho-emulator-process.js', import.meta.url)), [String(records)], { execArgv: ['--max-old-space-size=8192'] });
  const info = await new Promise<{ url: string; apiBase: string; organizationId: string; invoices: number }>((resolve) =>
    child.once('message', (m) => resolve(m as never)),
  );
  return { ...info, stop: () => child.send('stop') };
}

async function main() {
  const redis = await resolveRedis();
  const rows: string[] = [];
  const bytesTables: string[] = [];
  for (const n of SIZES) {
    const zoho = await forkZoho(n);
    const billing = await forkBillingEmulator(KEY);
    const prefix = `bench-mem-${randomBytes(3).toString('hex')}`;
    const dir = await mkdtemp(join(tmpdir(), 'erp-sync-bench-'));
    const d = ZOHO_SANDBOX_DEFAULTS;
    const config = join(dir, 'config.yaml');
    await writeFile(
      config,
      stringify({
        billing: { url: billing.url, apiKey: KEY, rateLimit: { max: 100_000, durationMs: 1000 } },
        redis: { url: redis.url, prefix },
        sync: { upsertConcurrency: 32, backlogHighWater: 5_000 },
        connections: [
          {
            id: 'zoho-bench',
            system: 'zoho-books',
            originSource: 'EXTERNAL_SYSTEM_A',
            entities: ['invoices'],
            settleDelaySeconds: 0,
            rateBudget: { perMinute: 10_000_000, concurrency: 8 },
            settings: {
              organizationId: zoho.organizationId,
              clientId: d.clientId,
              clientSecret: d.clientSecret,
              refreshToken: d.refreshToken,
              baseUrl: zoho.apiBase,
              accountsUrl: zoho.url,
              dailyCallLimit: 0,
              detailConcurrency: 5,
            },
          },
        ],
      }),
    );
    const started = Date.now();
    const child = spawn(
      process.execPath,
      [cli, 'backfill', '--config', config, '--connection', 'zoho-bench', '--entity', 'invoices', '--from', '2025-01-01', '--to', '2025-12-31', '--json'],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOG_LEVEL: 'error' } },
    );
    const rss = watchPeakRss(child.pid!);
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    let err = '';
    child.stderr.on('data', (b) => (err += b));
    const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
    const peakMb = rss.stop() / 1024;
    const seconds = (Date.now() - started) / 1000;
    const summary = JSON.parse(out || '{}') as { pulled?: number; enqueued?: number; quarantinedTotal?: number };
    if (code !== 0) console.error(`backfill exited ${code}; quarantined ${summary.quarantinedTotal ?? '?'}; stderr: ${err.slice(-2000)}`);
    rows.push(
      `| ${n.toLocaleString('en')} | ${summary.pulled ?? '?'} | ${summary.enqueued ?? '?'} | ${peakMb.toFixed(0)} MiB | ${seconds.toFixed(0)} s | ${code} |`,
    );
    console.error(`done ${n}: ${rows.at(-1)}`);
    zoho.stop();
    billing.stop();
    const r = stateConnection(redis.url);
    const held = await redisBytes(r, prefix);
    bytesTables.push(
      [
        `\n### ${n.toLocaleString('en')} invoices: Redis bytes per synced record\n`,
        '| key family | keys | bytes | bytes per record |',
        '|---|---|---|---|',
        ...redisBytesRows(held, n),
      ].join('\n'),
    );
    console.error(`redis ${n}: ${held.keys} keys, ${held.bytes} bytes, ${(held.bytes / n).toFixed(0)} per record`);
    if (summary.quarantinedTotal) {
      // Say why, before the keys go: a benchmark whose records were quarantined measured something else.
      const reasons: Record<string, number> = {};
      for (const v of Object.values(await r.hgetall(stateKeys(prefix).quarantine('zoho-bench')))) {
        const q = JSON.parse(v) as { reason: string; message?: string };
        const k = `${q.reason}: ${(q.message ?? '').slice(0, 160)}`;
        reasons[k] = (reasons[k] ?? 0) + 1;
      }
      console.error(
        'quarantined by reason:',
        Object.entries(reasons)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 5),
      );
    }
    await deleteKeysWithPrefix(r, prefix);
    await r.quit();
  }
  await redis.stop();
  console.log(
    `## (c) peak RSS of the worker during a backfill\n\nmachine: ${machine()}\nmethod: \`erp-sync backfill --entity invoices\` (workers in-process), Zoho and billing emulators in their own processes, backlog high-water 5,000, upsert concurrency 32; peak RSS = VmHWM of the backfill process sampled every 200 ms\n`,
  );
  console.log('| invoices | pulled | enqueued | peak RSS | time | exit |\n|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  console.log('\n## (d) Redis bytes per synced record, after the backfill (MEMORY USAGE … SAMPLES 0 of every key of the run)');
  for (const t of bytesTables) console.log(t);
}

await main();
