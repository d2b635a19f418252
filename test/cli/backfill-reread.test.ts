import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackfill } from '../../cli/commands/backfill.js';
import { CONNECTION, HISTORY, type Harness, startHarness } from '../support/harness.js';

/**
 * `erp-sync backfill --reread`: a backfill that reads every record of its range again, even those the
 * pipeline holds at the same version (Zoho skips their detail reads otherwise), so a changed fields
 * mapping can rewrite history.
 */
describe('erp-sync backfill --reread', () => {
  let p: Harness;
  const detailReads = () => p.zoho.journal.list().filter((e) => /\/invoices\/[^/?]+(\?|$)/.test(e.path)).length;
  const backfill = (reread: boolean) =>
    runBackfill(
      p.rt,
      {
        connectionId: CONNECTION,
        entities: ['invoices'],
        from: HISTORY.from,
        to: HISTORY.to,
        ...(reread ? { reread: true } : {}),
      },
      { restart: true, quiet: true },
    );

  beforeAll(async () => {
    // A settle delay of a second: what lets Zoho's reads skip the rows the pipeline holds.
    p = await startHarness({ name: 'backfill-reread', invoices: 20, settleDelaySeconds: 1 });
    p.startWorkers(['pull', 'upsert', 'backfill']);
    await backfill(false);
    await p.waitForDrain();
  }, 120_000);
  afterAll(() => p?.close());

  it('given the history synced, when backfilled again without --reread, then no invoice is read in detail again', async () => {
    const before = detailReads();
    const r = await backfill(false);
    await p.waitForDrain();
    expect(detailReads() - before).toBe(0);
    expect(r.enqueued).toBe(0);
  }, 120_000);

  it('given the history synced, when backfilled with --reread, then every invoice is read in detail again, and the unchanged ones are not written', async () => {
    const before = detailReads();
    const r = await backfill(true);
    await p.waitForDrain();
    expect(detailReads() - before).toBeGreaterThan(0);
    expect(r.pulled).toBeGreaterThan(0);
    expect(r.enqueued).toBe(0);
    expect(r.unchanged).toBeGreaterThan(0);
  }, 120_000);
});
