import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBackfill } from '../../../cli/commands/backfill.js';
import { CONNECTION, HISTORY, type Harness, startHarness } from '../../support/harness.js';

/**
 * A backfill whose windows fail for good (here Zoho answers every list read with a 404, which no retry
 * fixes) ends: the run completes as soon as the last window has failed, reports each failed window with
 * its reason, and the command exits 1. Run again once the cause is gone, it resumes only those windows.
 */
describe('given a backfill whose every invoice window fails permanently', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({ name: 'bf-failed', invoices: 40, customers: 5 });
    p.startWorkers(['pull', 'upsert', 'backfill']);
    // The access token is fetched before the faults, so they hit the list reads only (a token refresh
    // refused would park the connection instead: test/reliability/reauthorise-connection.test.ts).
    await p.rt
      .vendorClient(CONNECTION)
      .request({ path: 'organizations', endpoint: 'GET /organizations', schema: z.any() });
  });
  afterAll(() => p?.close());

  const request = { connectionId: CONNECTION, entities: ['invoices' as const], ...HISTORY };

  it('when it runs, then it ends promptly listing every failed window and why; run again after the fix, only those windows run and every invoice is in billing', async () => {
    p.zoho.faults.set({ errorRate: 1, errorStatus: 404 });
    const t0 = Date.now();
    const failed = await runBackfill(p.rt, request, { quiet: true });
    const seconds = (Date.now() - t0) / 1000;
    expect(failed.failedWindows?.length).toBe(failed.windows);
    expect(failed.windows).toBeGreaterThan(1);
    for (const f of failed.failedWindows!) {
      expect(f.window).toMatch(/^invoices-\d{4}-\d{2}-\d{2}$/);
      expect(f.reason).toContain('404');
    }
    expect(p.billingInvoices().size).toBe(0);

    p.zoho.faults.set({});
    const resumed = await runBackfill(p.rt, request, { quiet: true });
    expect(resumed.alreadyDone).toBe(false);
    expect(resumed.failedWindows).toBeUndefined();
    expect(resumed.windows).toBe(failed.windows);
    await p.waitForDrain(60_000);
    const result = await p.compareWithSource();
    expect(result.problems).toEqual([]);
    expect(result.inBilling).toBe(result.expected);
    // A third run has nothing left to do.
    expect((await runBackfill(p.rt, request, { quiet: true })).alreadyDone).toBe(true);
    console.info(
      `[backfill failed windows] ${failed.failedWindows!.length} windows failed; the run ended ${seconds.toFixed(1)} s after it started; resumed: ${result.inBilling} invoices in billing`,
    );
  }, 120_000);
});
