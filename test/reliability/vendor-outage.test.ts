import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectStatus } from '../../operations/collect-status.js';
import { CONNECTION, type Harness, startHarness, until } from '../support/harness.js';

/**
 * A vendor outage on the pull side waits instead of failing: the ERP answers 503 to everything; the pull
 * spends one attempt (each vendor call already retried in-process), then, failing again, marks the
 * connection's vendor down and waits `sync.vendorOutageRetrySeconds` between tries without using
 * attempts. When the vendor answers again the pull completes and the outage is cleared.
 */
describe('given a pull of a Zoho connection whose ERP is down', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({
      name: 'vendor-outage',
      invoices: 20,
      customers: 5,
      sync: { vendorOutageRetrySeconds: 1 },
    });
  });
  afterAll(() => p?.close());

  it('when the ERP answers 503 for longer than the pull attempts last, then the pull waits (vendor shown down), does not fail, and completes once the ERP answers', async () => {
    const { rt } = p;
    p.zoho.faults.set({ errorRate: 1, errorStatus: 503 });
    p.startWorkers(['pull', 'upsert']);
    const job = await rt.queues.pull.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { priority: 1 });
    const outage = await until('the vendor to be marked down', () => rt.outages.get(CONNECTION), 60_000, 50);
    expect(outage.message).toContain('503');
    const status = await collectStatus(rt);
    expect(status.connections[0]!.vendor).toMatchObject({ up: false });
    // The pull keeps waiting: delayed, not failed, however long the outage lasts (five more tries here).
    const refusedAtMark = p.zoho.journal.list().filter((e) => e.status === 503).length;
    await until(
      'five more tries',
      () => p.zoho.journal.list().filter((e) => e.status === 503).length >= refusedAtMark + 5,
      60_000,
      50,
    );
    expect(['delayed', 'active', 'waiting', 'prioritized']).toContain(await job.getState());
    const made = (await rt.queues.pull.getJob(job.id!))!.attemptsMade;
    expect(made).toBeLessThanOrEqual(1);

    p.zoho.faults.set({});
    await until('the pull to complete', async () => (await job.getState()) === 'completed', 60_000, 50);
    expect(await rt.outages.get(CONNECTION)).toBeUndefined();
    await p.waitForDrain(60_000);
    const result = await p.compareWithSource();
    expect(result.problems).toEqual([]);
    console.info(
      `[vendor outage] pull waited through ${p.zoho.journal.list().filter((e) => e.status === 503).length} refused calls with ${made} attempt used; completed once the ERP answered`,
    );
  }, 120_000);
});
