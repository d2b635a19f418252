import { randomBytes } from 'node:crypto';
import { validateSettings } from '../connectors/registry.js';
import type { DriftItem } from '../jobs/reconcile/drift.js';
import { makeJobHelpers } from '../app/job-helpers.js';
import { runCountInvariant } from '../jobs/reconcile/count-invariant.js';
import { DriftReport } from '../jobs/reconcile/drift.js';
import { createRuntime } from '../app/create-runtime.js';
import { reconcileFields } from '../jobs/pull/reconcile-fields.js';
import { InvoiceInput } from '../src/billing/schemas/index.js';
import { utcDate } from '../src/billing/dates.js';
import { parseConfig } from '../src/config.js';
import { createLogger } from '../src/observability/logger.js';
import { contentHash } from '../src/pipeline/content-hash.js';
import { encodeLedgerEntry } from '../src/pipeline/ledger-entry-codec.js';
import { deleteKeysWithPrefix, resolveRedis, stateConnection } from '../src/redis.js';
import { machine } from './bench-utils.js';
import { forkBillingEmulator } from './fork-emulator.js';
import { reconcileBenchConfig, runReconcileCli, writeBenchConfig } from './reconcile-cli.js';
import { seedInvoice } from './seed-invoice.js';

/**
 * The count invariant at scale: billing (emulator, own process) holds N invoices of the connection's
 * origin source, their invoice dates spread over three years; the ledger holds the N matching entries;
 * one invoice is deleted in billing. Measured: the one-time build of the ledger's date index, its bytes
 * per record, and the listing calls and seconds the invariant takes to find the missing record, in
 * process (the scheduled job's check) and as the real `erp-sync reconcile --history --json`; baseline in
 * the same run: `erp-sync reconcile --from today --to today --json`, which finds it here only because the
 * seeded billing records were all updated today (skip it with --no-windowed).
 *
 *   npm run bench:reconcile-history [-- 1000000] [--no-windowed]
 */
const N = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 1_000_000);
const WINDOWED = !process.argv.includes('--no-windowed');
const SPREAD_DAYS = 1095;
const KEY = 'bench-key';

async function main() {
  const redis = await resolveRedis();
  const billing = await forkBillingEmulator(KEY, {}, N, SPREAD_DAYS);
  const prefix = `bench-hist-${randomBytes(3).toString('hex')}`;
  const yaml = reconcileBenchConfig(billing.url, KEY, redis.url, prefix);
  const config = parseConfig(yaml, {}, validateSettings);
  const rt = await createRuntime(config, redis.url, createLogger({ level: 'error' }));
  const r = stateConnection(redis.url);
  const ledgerKey = rt.keys.ledger('bench', 'invoices');
  const writtenAt = Date.now();
  for (let i = 0; i < N; i += 5000) {
    const pipe = r.pipeline();
    for (let j = i; j < Math.min(N, i + 5000); j++) {
      const invoice = InvoiceInput.parse(seedInvoice(j, SPREAD_DAYS));
      const body = { kind: 'invoice' as const, invoice };
      const entry = {
        hash: contentHash(body),
        version: '2026-01-15T00:00:00.000Z',
        billingId: invoice.invoiceId,
        number: invoice.invoiceNumber,
        writtenAt,
        fields: reconcileFields(body),
      };
      pipe.hset(ledgerKey, String(j), encodeLedgerEntry(String(j), entry));
    }
    await pipe.exec();
  }
  // A ledger seeded directly has no date index: the first check builds it (as for a ledger older than the index).
  let t = Date.now();
  const indexed = await rt.ledgerDates.ensure(rt.ledger, 'bench', 'invoices');
  const indexSeconds = (Date.now() - t) / 1000;
  const indexBytes = Number(await r.call('MEMORY', 'USAGE', rt.keys.ledgerByDate('bench', 'invoices'), 'SAMPLES', '0'));

  const history = makeJobHelpers(rt).reconcile.history;
  t = Date.now();
  const clean = await runCountInvariant(history, 'bench', new DriftReport());
  const cleanSeconds = (Date.now() - t) / 1000;

  const victim = Math.floor(N * 0.37);
  const res = await fetch(
    `${billing.url}/__admin/invoices/${encodeURIComponent(seedInvoice(victim).invoiceId)}/delete?company=bench`,
    { method: 'POST' },
  );
  if (!res.ok) throw new Error(`delete: ${res.status}`);
  const report = new DriftReport();
  t = Date.now();
  const found = await runCountInvariant(history, 'bench', report);
  const foundSeconds = (Date.now() - t) / 1000;
  const hit = report.items.find((i) => i.erpId === String(victim) && i.kind === 'missing_in_billing');

  // The same check on demand: the real CLI, a process of its own (config loaded, Redis opened, the in-flight sweep).
  const file = await writeBenchConfig(yaml);
  const calls = async () =>
    ((await (await fetch(`${billing.url}/__admin/journal?path=/external/invoices`)).json()) as { entries: unknown[] })
      .entries.length;
  type Result = { total: number; items: DriftItem[]; billingCalls?: number };
  const cli = async (args: string[]) => {
    const before = await calls();
    const run = await runReconcileCli<Result>(file, args);
    if (!run.result) console.error(run.stderr.slice(0, 2000));
    const hit = run.result?.items.find((i) => i.erpId === String(victim));
    return {
      ...run,
      calls: (await calls()) - before,
      found: hit ? `${hit.kind} (drift total ${run.result!.total})` : 'NOT FOUND',
    };
  };
  const onDemand = await cli(['--history']);
  const today = utcDate(Date.now());
  const windowed = WINDOWED ? await cli(['--from', today, '--to', today]) : undefined;

  console.log(`## whole-history reconcile: one missing invoice among N\n\nmachine: ${machine()}`);
  console.log(
    `method: billing emulator (own process) seeded with N invoices of origin source EXTERNAL_SYSTEM_A, invoice dates spread over ${SPREAD_DAYS} days, all updated today; ledger seeded with the N matching entries; one invoice deleted in billing; \`runCountInvariant\` in process, then \`erp-sync reconcile --history --json\`${WINDOWED ? ' and \`--from today --to today --json\`' : ''} (own processes: wall time, VmHWM every 200 ms; calls = billing's journal of GET /external/invoices); billing budget 1,000 requests/s; leafRecords ${config.reconcile.countInvariant.leafRecords}\n`,
  );
  console.log(
    '| invoices | index build (once) | index bytes/record | clean: calls, time | one missing: calls, time | narrowed window | found |\n|---|---|---|---|---|---|---|',
  );
  console.log(
    `| ${N.toLocaleString('en')} | ${indexed.toLocaleString('en')} members, ${indexSeconds.toFixed(1)} s | ${(indexBytes / N).toFixed(0)} | ${clean.calls}, ${cleanSeconds.toFixed(2)} s | ${found.calls}, ${foundSeconds.toFixed(2)} s | ${found.narrowed.map((w) => `${w.window} (billing ${w.billing}, ledger ${w.ledger})`).join(', ')} | ${hit ? `erpId ${hit.erpId}, missing_in_billing` : 'NOT FOUND'} (drift total ${report.total}) |`,
  );
  console.log(
    '\n| one missing among N | billing listing calls | time | peak RSS | exit | found |\n|---|---|---|---|---|---|',
  );
  console.log(
    `| scheduled count invariant (in process) | ${found.calls} | ${foundSeconds.toFixed(1)} s | – | – | ${hit ? 'missing_in_billing' : 'NOT FOUND'} |`,
  );
  for (const [name, run] of [
    ['`reconcile --history`', onDemand],
    ['`reconcile --from today --to today`', windowed],
  ] as const)
    if (run)
      console.log(
        `| ${name} | ${run.calls}${run.result?.billingCalls !== undefined ? ` (it counted ${run.result.billingCalls})` : ''} | ${run.seconds.toFixed(1)} s | ${run.peakMb.toFixed(0)} MiB | ${run.code} | ${run.found} |`,
      );
  billing.stop();
  await deleteKeysWithPrefix(r, prefix);
  await r.quit();
  await rt.close();
  await redis.stop();
}

await main();
