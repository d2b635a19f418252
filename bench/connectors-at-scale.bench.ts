import { startQuickBooksDemo, startXeroDemo } from '../cli/demo/sandbox-erps.js';
import { runBackfill } from '../cli/commands/backfill.js';
import { addDays, utcDate } from '../src/billing/dates.js';
import { resolveRedis } from '../src/redis.js';
import { compareWithSource, startBackfillRig } from './backfill-rig.js';
import { arg, machine } from './bench-utils.js';

/**
 * The at-scale end-to-end check at full size (test/e2e/connectors-at-scale.test.ts runs it small, over
 * small pages): a whole-history backfill of a QuickBooks company and of a Xero organisation, each with
 * about 5,000 receivable invoices (the generators also delete some QuickBooks invoices and make Xero
 * bills and drafts, which are not receivables, so they are asked for more records), their credit notes
 * and customers, into the billing emulator over real Redis. Checked, or exit 1: billing equals the
 * source's expected mapping record for record (none missing, none twice, every field), nothing refused
 * by billing, and a second backfill upserts nothing.
 * Measured: the backfill's seconds and invoices per second, and the second run's seconds.
 *
 *   npm run bench:at-scale [-- --invoices 5000]
 */
const INVOICES = arg('invoices', 5000);
const VENDORS = [
  { name: 'quickbooks', start: startQuickBooksDemo, records: Math.ceil(INVOICES * 1.04) },
  { name: 'xero', start: startXeroDemo, records: Math.ceil(INVOICES * 1.3) },
] as const;

async function main() {
  const redis = await resolveRedis();
  console.log(`connectors at scale: ${INVOICES} sales invoices per vendor; ${machine()}; Redis ${redis.source}`);
  console.log('| vendor | invoices in billing | backfill s | invoices/s | second run s | problems |');
  console.log('|---|---|---|---|---|---|');
  let failed = false;
  try {
    for (const v of VENDORS) {
      const rig = await startBackfillRig({ start: v.start, records: v.records, redisUrl: redis.url });
      try {
        const conn = rig.erp.connectionId;
        const range = { connectionId: conn, from: rig.erp.from, to: addDays(utcDate(Date.now()), 2) };
        const t0 = performance.now();
        await runBackfill(rig.rt, { ...range, entities: ['customers', 'invoices', 'credit-notes'] }, { quiet: true });
        const backfillS = (performance.now() - t0) / 1000;
        const { expected, quarantined, inBilling, mismatches, refused } = await compareWithSource(rig.rt, conn);
        const before = await rig.upsertPosts();
        const t1 = performance.now();
        const again = await runBackfill(
          rig.rt,
          { ...range, entities: ['invoices', 'credit-notes'] },
          { restart: true, quiet: true },
        );
        const secondS = (performance.now() - t1) / 1000;
        const problems = [
          ...mismatches.slice(0, 10),
          ...refused.slice(0, 10),
          ...(inBilling === expected.size ? [] : [`${inBilling} in billing, ${expected.size} expected`]),
          ...(expected.size + quarantined === rig.erp.sourceInvoices()
            ? []
            : [`${expected.size} mapped + ${quarantined} quarantined ≠ ${rig.erp.sourceInvoices()} in the source`]),
          ...(again.enqueued === 0 && (await rig.upsertPosts()) === before
            ? []
            : [`the second backfill enqueued ${again.enqueued}`]),
        ];
        console.log(
          `| ${v.name} | ${inBilling} | ${backfillS.toFixed(1)} | ${(inBilling / backfillS).toFixed(0)} | ${secondS.toFixed(1)} | ${problems.length} |`,
        );
        for (const p of problems) console.error(`${v.name}: ${p}`);
        failed ||= problems.length > 0;
      } finally {
        await rig.close();
      }
    }
  } finally {
    await redis.stop();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
