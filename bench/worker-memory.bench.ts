import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { stateKeys } from '../src/pipeline/keys.js';
import { deleteKeysWithPrefix, resolveRedis, stateConnection } from '../src/redis.js';
import { machine, sizesAndVendor } from './bench-utils.js';
import { forkBillingEmulator } from './fork-emulator.js';
import { forkVendorEmulator } from './fork-vendor-emulator.js';
import { watchPeakRss } from './proc-rss.js';
import { writeSyncBenchConfig } from './sync-bench-config.js';

/**
 * Peak RSS of the long-running service, `erp-sync worker` (all roles, as shipped: its own heap sizing
 * unless NODE_OPTIONS or ERP_SYNC_HEAP_MB say otherwise), while its scheduled pull syncs N invoices from
 * an ERP emulator into the billing emulator (both in their own processes, with heaps of GiBs) on one Redis. The
 * worker starts on an empty state, so its first pull reads the whole history; the run ends when the
 * ledger holds every invoice billing takes from that source (drafts excluded), then the worker gets
 * SIGTERM and must exit 0.
 *
 *   npm run bench:worker-memory [-- 20000 200000] [--vendor zoho-books|quickbooks|xero]
 */
const { sizes: SIZES, vendor: VENDOR } = sizesAndVendor([20_000]);
const KEY = 'bench-key';
const cli = fileURLToPath(new URL('../cli/main.js', import.meta.url));
/** A run that makes no progress for this long is reported as stalled instead of waited on forever. */
const STALL_MS = 300_000;

async function main() {
  const redis = await resolveRedis();
  const rows: string[] = [];
  for (const n of SIZES) {
    const erp = await forkVendorEmulator(VENDOR, n);
    console.error(
      `${VENDOR} emulator: ${n} invoices generated in ${erp.generatedSeconds.toFixed(1)} s; billing takes ${erp.sourceInvoices}`,
    );
    const billing = await forkBillingEmulator(KEY);
    const prefix = `bench-wmem-${randomBytes(3).toString('hex')}`;
    const connectionId = String(erp.connection.id);
    const config = await writeSyncBenchConfig({
      billingUrl: billing.url,
      billingKey: KEY,
      redisUrl: redis.url,
      prefix,
      connection: erp.connection,
      everySeconds: 5,
    });
    const r = stateConnection(redis.url);
    const ledger = stateKeys(prefix).ledger(connectionId, 'invoices');
    const started = Date.now();
    const child = spawn(process.execPath, [cli, 'worker', '--config', config, '--http-port', '0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LOG_LEVEL: 'error' },
    });
    const rss = watchPeakRss(child.pid!);
    let err = '';
    child.stderr.on('data', (b) => (err = (err + b).slice(-4000)));
    let exited: number | null | undefined;
    const exit = new Promise<number | null>((resolve) =>
      child.on('exit', (c, s) => {
        exited = c ?? (s ? -1 : null);
        resolve(exited);
      }),
    );
    let synced = 0;
    let progressAt = Date.now();
    let lastReport = 0;
    while (exited === undefined && synced < erp.sourceInvoices && Date.now() - progressAt < STALL_MS) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const now = await r.hlen(ledger);
      if (now > synced) progressAt = Date.now();
      synced = now;
      if (Date.now() - lastReport >= 30_000) {
        lastReport = Date.now();
        console.error(
          `  ${synced} / ${erp.sourceInvoices} in the ledger after ${((Date.now() - started) / 1000).toFixed(0)} s, worker RSS ${(rss.current() / 1024).toFixed(0)} MiB, peak so far ${(rss.peek() / 1024).toFixed(0)} MiB`,
        );
      }
    }
    const seconds = (Date.now() - started) / 1000;
    child.kill('SIGTERM');
    const code = await exit;
    const peakMb = rss.stop() / 1024;
    const quarantined = await r.hlen(stateKeys(prefix).quarantine(connectionId));
    erp.stop();
    billing.stop();
    if (synced < erp.sourceInvoices || code !== 0)
      console.error(
        `worker: ${synced} of ${erp.sourceInvoices} synced, exit ${code}, quarantined ${quarantined}; stderr: ${err.slice(-2000)}`,
      );
    rows.push(
      `| ${VENDOR} | ${n.toLocaleString('en')} | ${synced} / ${erp.sourceInvoices} | ${quarantined} | ${peakMb.toFixed(0)} MiB | ${seconds.toFixed(0)} s | ${(synced / seconds).toFixed(0)} | ${erp.peakRssMb().toFixed(0)} MiB | ${code} |`,
    );
    console.error(`done ${n}: ${rows.at(-1)}`);
    await deleteKeysWithPrefix(r, prefix);
    await r.quit();
  }
  await redis.stop();
  console.log(
    `## peak RSS of \`erp-sync worker\` while its scheduled pull syncs N invoices\n\nmachine: ${machine()}\nNODE_OPTIONS: ${process.env.NODE_OPTIONS ?? '(none)'}; ERP_SYNC_HEAP_MB: ${process.env.ERP_SYNC_HEAP_MB ?? '(unset)'}\nmethod: \`erp-sync worker\` (all roles) on an empty state, pull every 5 s, backlog high-water 5,000, upsert concurrency 32; ERP and billing emulators in their own processes; time = worker start until the ledger holds every invoice billing takes; peak RSS = VmHWM of the worker sampled every 200 ms\n`,
  );
  console.log(
    '| vendor | invoices | in the ledger / expected | quarantined | worker peak RSS | time | invoices/s | emulator peak RSS | exit |\n|---|---|---|---|---|---|---|---|---|',
  );
  for (const row of rows) console.log(row);
}

await main();
