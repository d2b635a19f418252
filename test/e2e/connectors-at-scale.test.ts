import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareWithSource, startBackfillRig, type BackfillRig } from '../../bench/backfill-rig.js';
import { runBackfill } from '../../cli/commands/backfill.js';
import { startQuickBooksDemo, startXeroDemo } from '../../cli/demo/sandbox-erps.js';
import { addDays, utcDate } from '../../src/billing/dates.js';
import { TEST_REDIS_URL } from '../support/redis.js';

/**
 * A whole-history backfill per vendor, checked record for record. A small history read over small pages
 * (PAGE_SIZE) crosses as many page boundaries as a large one (150 invoices over 10-record pages: 15 per
 * stream and window set); the same run at 5,000 invoices per vendor is `npm run bench:at-scale`
 * (docs/benchmarks.md).
 */
const INVOICES = 150;
const PAGE_SIZE = 10;

// The generators also delete some invoices (QuickBooks) and make bills (Xero ACCPAY, not receivables):
// ask for more records to keep at least INVOICES sales invoices.
describe.each([
  ['quickbooks', startQuickBooksDemo, Math.ceil(INVOICES * 1.04)],
  ['xero', startXeroDemo, Math.ceil(INVOICES * 1.3)],
] as const)('end to end over many pages: %s → billing', (_name, start, records) => {
  let rig: BackfillRig;

  beforeAll(async () => {
    rig = await startBackfillRig({ start, records, redisUrl: TEST_REDIS_URL, pageSize: PAGE_SIZE });
  }, 60_000);
  afterAll(async () => {
    await rig?.close();
  });

  it('given a backfill of the whole history (invoices, credit notes, customers), then billing equals the expected mapping of the source, record for record, and a second run upserts nothing', async () => {
    const conn = rig.erp.connectionId;
    const { from } = rig.erp;
    const to = addDays(utcDate(Date.now()), 2);
    await runBackfill(
      rig.rt,
      { connectionId: conn, entities: ['customers', 'invoices', 'credit-notes'], from, to },
      { quiet: true },
    );
    // The invoices billing takes, deleted ones and drafts (a few percent of them) left out.
    expect(rig.erp.sourceInvoices()).toBeGreaterThanOrEqual(INVOICES * 0.85);

    const { expected, quarantined, inBilling, mismatches, refused } = await compareWithSource(rig.rt, conn);
    expect(expected.size + quarantined).toBe(rig.erp.sourceInvoices());
    expect(mismatches.slice(0, 10)).toEqual([]);
    expect(inBilling).toBe(expected.size);
    expect(refused).toEqual([]);

    const before = await rig.upsertPosts();
    const again = await runBackfill(
      rig.rt,
      { connectionId: conn, entities: ['invoices', 'credit-notes'], from, to },
      { restart: true, quiet: true },
    );
    expect(again.enqueued).toBe(0);
    expect(await rig.upsertPosts()).toBe(before);
  }, 120_000);
});
