import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeJobHelpers } from '../../app/job-helpers.js';
import { runReconcile } from '../../jobs/reconcile/run-reconcile.js';
import { sweepInFlight } from '../../jobs/sweep/sweep-processor.js';
import { upsertSweepScheduler } from '../../app/worker-service.js';
import { utcDate } from '../../src/billing/dates.js';
import { CONNECTION, type Harness, startHarness, until } from '../support/harness.js';

/**
 * Accounted for, always: every record a pull enqueues is tracked in the in-flight index until it is
 * written, skipped or quarantined. A record whose upsert job disappears from Redis (deleted here on
 * purpose, as a lost write or a careless FLUSH would) is found by the sweep and enqueued again; the
 * scheduled reconcile runs the same check and reports it as `lost_in_flight`.
 *
 * One record per job (`upsertBatchSize: 1`): one deleted job is one lost record; a deleted batch is
 * found the same way, record by record (upsert-batch.test.ts).
 */
describe('given 20 invoices pulled and waiting for upsert, one of whose jobs is deleted from Redis', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({
      name: 'lost-job',
      invoices: 20,
      customers: 5,
      sync: { sweepEverySeconds: 5, sweepGraceSeconds: 0, upsertBatchSize: 1 },
    });
  });
  afterAll(() => p?.close());

  const pullWithoutUpserting = async () => {
    const pulls = p.startWorkers(['pull']);
    const job = await p.rt.queues.pull.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { priority: 1 });
    await until('the pull to finish', async () => (await job.getState()) === 'completed', 30_000, 50);
    await pulls.stop(2_000);
  };
  const deleteOneJob = async () => {
    const waiting = (await p.rt.queues.upsert.getJobs(['wait', 'prioritized'])).filter(
      (j) => j.data.entity === 'invoices',
    );
    const victim = waiting[0]!;
    await victim.remove();
    return victim.data.erpId as string;
  };

  it('when the scheduled reconcile runs before any sweep, then it reports the record as lost_in_flight, enqueues it again, and every invoice reaches billing', async () => {
    const { rt } = p;
    await pullWithoutUpserting();
    const mapped = (await p.expectedInvoices()).mapped;
    expect(await rt.inFlight.count(CONNECTION)).toBe(mapped.size);
    const lost = await deleteOneJob();
    expect(await rt.queues.upsert.getJobs(['wait', 'prioritized'])).toHaveLength(mapped.size - 1);

    const today = utcDate(Date.now());
    const helpers = makeJobHelpers(rt).reconcile;
    const report = await runReconcile(helpers, { connectionId: CONNECTION, from: today, to: today });
    expect(report.counts.lost_in_flight).toBe(1);
    expect(report.items.filter((i) => i.kind === 'lost_in_flight')).toEqual([
      expect.objectContaining({ erpId: lost, needsPerson: false }),
    ]);
    expect(report.inFlight).toBe(mapped.size);
    expect(await rt.queues.upsert.getJobs(['wait', 'prioritized'])).toHaveLength(mapped.size);

    const upserts = p.startWorkers(['upsert']);
    await p.waitForDrain(60_000);
    const result = await p.compareWithSource();
    expect(result.problems).toEqual([]);
    expect(result.inBilling).toBe(mapped.size);
    expect(await rt.inFlight.count(CONNECTION)).toBe(0);
    expect((await rt.syncStatus.readSweep(CONNECTION)).recovered).toBe(1);
    const metrics = await rt.metrics.registry.getSingleMetricAsString('erpsync_records_recovered_total');
    expect(metrics).toContain(
      `erpsync_records_recovered_total{connection="${CONNECTION}",entity="invoices",action="re-enqueued"} 1`,
    );
    await upserts.stop(2_000);
  }, 90_000);

  it('when no reconcile runs, then the scheduled sweep finds it and enqueues it again, and the next sweep finds nothing', async () => {
    const { rt } = p;
    for (const inv of p.zoho.store.invoices().slice(0, 5)) p.zoho.store.editInvoice(inv.invoice_id);
    await pullWithoutUpserting();
    expect(await rt.inFlight.count(CONNECTION)).toBeGreaterThanOrEqual(5);
    const lost = await deleteOneJob();
    const recoveredBefore = (await rt.syncStatus.readSweep(CONNECTION)).recovered;

    await upsertSweepScheduler(rt);
    p.startWorkers(['upsert']);
    await until(
      'the sweep to recover the record',
      async () => (await rt.syncStatus.readSweep(CONNECTION)).recovered === recoveredBefore + 1,
      30_000,
      100,
    );
    await until('every invoice written', async () => (await rt.inFlight.count(CONNECTION)) === 0, 30_000, 100);
    const result = await p.compareWithSource();
    expect(result.problems).toEqual([]);
    expect(p.billingInvoices().has(lost)).toBe(true);
    const again = await sweepInFlight(makeJobHelpers(rt).sweep, CONNECTION);
    expect(again).toMatchObject({ inFlight: 0, recovered: [] });
  }, 90_000);
});
