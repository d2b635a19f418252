import { randomBytes } from 'node:crypto';
import { reconcileFields } from '../jobs/pull/reconcile-fields.js';
import { utcDate } from '../src/billing/dates.js';
import { InvoiceInput } from '../src/billing/schemas/index.js';
import { contentHash } from '../src/pipeline/content-hash.js';
import { stateKeys } from '../src/pipeline/keys.js';
import { encodeLedgerEntry } from '../src/pipeline/ledger-entry-codec.js';
import { deleteKeysWithPrefix, resolveRedis, stateConnection } from '../src/redis.js';
import { machine } from './bench-utils.js';
import { forkBillingEmulator } from './fork-emulator.js';
import { reconcileBenchConfig, runReconcileCli, writeBenchConfig } from './reconcile-cli.js';
import { seedInvoice } from './seed-invoice.js';

/**
 * Reconcile a window of N invoices: billing (emulator, own process) holds N invoices updated
 * today for the connection's origin source; the ledger holds the matching N entries. The measured
 * process is the real `erp-sync reconcile --json`; its peak RSS must not grow with N.
 *
 *   npm run bench:reconcile [-- 20000 200000]
 */
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const SIZES = sizes.length ? sizes : [20_000, 200_000];
const KEY = 'bench-key';

async function main() {
  const redis = await resolveRedis();
  const rows: string[] = [];
  for (const n of SIZES) {
    const billing = await forkBillingEmulator(KEY, {}, n);
    const prefix = `bench-rec-${randomBytes(3).toString('hex')}`;
    const keys = stateKeys(prefix);
    const r = stateConnection(redis.url);
    const now = Date.now();
    for (let i = 0; i < n; i += 5000) {
      const pipe = r.pipeline();
      for (let j = i; j < Math.min(n, i + 5000); j++) {
        const invoice = InvoiceInput.parse(seedInvoice(j));
        const body = { kind: 'invoice' as const, invoice };
        pipe.hset(
          keys.ledger('bench', 'invoices'),
          String(j),
          encodeLedgerEntry(String(j), {
            hash: contentHash(body),
            version: '2026-01-15T00:00:00.000Z',
            billingId: invoice.invoiceId,
            number: invoice.invoiceNumber,
            writtenAt: now,
            fields: reconcileFields(body),
          }),
        );
      }
      await pipe.exec();
    }
    const config = await writeBenchConfig(reconcileBenchConfig(billing.url, KEY, redis.url, prefix));
    const today = utcDate(Date.now());
    const { code, seconds, peakMb, result, stderr } = await runReconcileCli<{
      total: number;
      checked: { billing: number; ledger: number };
    }>(config, ['--from', today, '--to', today]);
    if (!result) console.error(stderr.slice(0, 2000));
    rows.push(
      `| ${n.toLocaleString('en')} | ${result?.checked.billing ?? '?'} | ${result?.checked.ledger ?? '?'} | ${result?.total ?? '?'} | ${peakMb.toFixed(0)} MiB | ${seconds.toFixed(1)} s | ${code} |`,
    );
    console.error(`done ${n}: ${rows.at(-1)}`);
    billing.stop();
    await deleteKeysWithPrefix(r, prefix);
    await r.quit();
  }
  await redis.stop();
  console.log(
    `## reconcile a window of N invoices\n\nmachine: ${machine()}\nmethod: billing emulator (own process) seeded with N invoices updated today for origin source EXTERNAL_SYSTEM_A; ledger seeded with the N matching entries; \`erp-sync reconcile --from today --to today --json\` measured (wall time, VmHWM every 200 ms); billing pages of 500; billing budget 1,000 requests/s\n`,
  );
  console.log(
    '| invoices | billing checked | ledger checked | drift | peak RSS | time | exit |\n|---|---|---|---|---|---|---|',
  );
  for (const row of rows) console.log(row);
}

await main();
