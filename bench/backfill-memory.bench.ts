import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { stateKeys } from '../src/pipeline/keys.js';
import { deleteKeysWithPrefix, resolveRedis, stateConnection } from '../src/redis.js';
import { machine, sizesAndVendor } from './bench-utils.js';
import { forkBillingEmulator } from './fork-emulator.js';
import { forkVendorEmulator } from './fork-vendor-emulator.js';
import { watchPeakRss } from './proc-rss.js';
import { redisBytes, redisBytesRows } from './redis-bytes.js';
import { writeSyncBenchConfig } from './sync-bench-config.js';

/**
 * (c) Peak RSS of the worker for backfills of 20,000 and 200,000 invoices: the real `erp-sync backfill`
 * command (workers in-process, the CLI's own heap sizing unless NODE_OPTIONS or ERP_SYNC_HEAP_MB say
 * otherwise), against an ERP emulator (Zoho Books unless --vendor) and the billing emulator in their own
 * processes, on one Redis. Memory should stay flat: pages are streamed, upserts wait in Redis, and a pull waits while
 * the upsert backlog is above the high-water mark.
 *
 * (d) Redis bytes per synced record: once the backfill has exited, MEMORY USAGE of every key of the run's
 * prefix (ledger, indexes, job remnants, …), by family, divided by the invoices synced.
 *
 *   npm run bench:memory [-- 20000 200000] [--vendor zoho-books|quickbooks|xero]
 */
const { sizes: SIZES, vendor: VENDOR } = sizesAndVendor([20_000, 200_000]);
const KEY = 'bench-key';
const cli = fileURLToPath(new URL('../cli/main.js', import.meta.url));

async function main() {
  const redis = await resolveRedis();
  const rows: string[] = [];
  const bytesTables: string[] = [];
  for (const n of SIZES) {
    const erp = await forkVendorEmulator(VENDOR, n);
    console.error(`${VENDOR} emulator: ${n} invoices generated in ${erp.generatedSeconds.toFixed(1)} s`);
    const billing = await forkBillingEmulator(KEY);
    const prefix = `bench-mem-${randomBytes(3).toString('hex')}`;
    const connectionId = String(erp.connection.id);
    const config = await writeSyncBenchConfig({
      billingUrl: billing.url,
      billingKey: KEY,
      redisUrl: redis.url,
      prefix,
      connection: erp.connection,
    });
    const started = Date.now();
    const child = spawn(
      process.execPath,
      [
        cli,
        'backfill',
        '--config',
        config,
        '--connection',
        connectionId,
        '--entity',
        'invoices',
        '--from',
        erp.from,
        '--to',
        erp.to,
        '--json',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOG_LEVEL: 'error' } },
    );
    const rss = watchPeakRss(child.pid!);
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    let err = '';
    child.stderr.on('data', (b) => (err += b));
    // Progress on stderr every 30 s: the ledger's size and the RSS, so a long run shows any drift as it goes.
    const watch = stateConnection(redis.url);
    const ledger = stateKeys(prefix).ledger(connectionId, 'invoices');
    const progress = setInterval(() => {
      void watch
        .hlen(ledger)
        .then((synced) =>
          console.error(
            `  ${synced} in the ledger after ${((Date.now() - started) / 1000).toFixed(0)} s, backfill RSS ${(rss.current() / 1024).toFixed(0)} MiB, peak so far ${(rss.peek() / 1024).toFixed(0)} MiB`,
          ),
        );
    }, 30_000);
    const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
    clearInterval(progress);
    await watch.quit();
    const peakMb = rss.stop() / 1024;
    const seconds = (Date.now() - started) / 1000;
    const summary = JSON.parse(out || '{}') as { pulled?: number; enqueued?: number; quarantinedTotal?: number };
    if (code !== 0)
      console.error(
        `backfill exited ${code}; quarantined ${summary.quarantinedTotal ?? '?'}; stderr: ${err.slice(-2000)}`,
      );
    rows.push(
      `| ${VENDOR} | ${n.toLocaleString('en')} | ${summary.pulled ?? '?'} | ${summary.enqueued ?? '?'} | ${peakMb.toFixed(0)} MiB | ${seconds.toFixed(0)} s | ${erp.peakRssMb().toFixed(0)} MiB | ${code} |`,
    );
    console.error(`done ${n}: ${rows.at(-1)}`);
    erp.stop();
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
      for (const v of Object.values(await r.hgetall(stateKeys(prefix).quarantine(connectionId)))) {
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
    `## (c) peak RSS of the worker during a backfill\n\nmachine: ${machine()}\nmethod: \`erp-sync backfill --entity invoices\` (workers in-process; NODE_OPTIONS: ${process.env.NODE_OPTIONS ?? '(none)'}; ERP_SYNC_HEAP_MB: ${process.env.ERP_SYNC_HEAP_MB ?? '(unset)'}), ${VENDOR} and billing emulators in their own processes, backlog high-water 5,000, upsert concurrency 32; peak RSS = VmHWM of the backfill process sampled every 200 ms\n`,
  );
  console.log(
    '| vendor | invoices | pulled | enqueued | peak RSS | time | emulator peak RSS | exit |\n|---|---|---|---|---|---|---|---|',
  );
  for (const r of rows) console.log(r);
  console.log(
    '\n## (d) Redis bytes per synced record, after the backfill (MEMORY USAGE … SAMPLES 0 of every key of the run)',
  );
  for (const t of bytesTables) console.log(t);
}

await main();
