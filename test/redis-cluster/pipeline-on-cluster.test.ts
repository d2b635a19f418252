import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeJobHelpers } from '../../app/job-helpers.js';
import { runReconcile } from '../../jobs/reconcile/run-reconcile.js';
import { utcDate } from '../../src/billing/dates.js';
import { COMPANY, CONNECTION, type Harness, startHarness } from '../support/harness.js';
import { startRedisCluster, type LocalRedisCluster } from '../support/redis-cluster.js';

/**
 * The demo's pipeline with a Redis Cluster for Redis: a backfill of a Zoho Books organisation (the Zoho
 * emulator) into the billing emulator, run by in-process workers whose every connection is a Cluster
 * client, then a deep reconcile that finds nothing to report. BullMQ's scripts (queues tagged per queue,
 * a backfill's flow spanning backfill and pull) and ours (tagged per connection) all run on the cluster.
 */
const INVOICES = 600;

describe(`given a Redis Cluster of three masters and a Zoho organisation of ${INVOICES} invoices`, () => {
  let cluster: LocalRedisCluster;
  let p: Harness;
  beforeAll(async () => {
    cluster = await startRedisCluster();
    p = await startHarness({ name: 'cluster-e2e', redisUrl: cluster.url, invoices: INVOICES, customers: 40 });
  }, 60_000);
  afterAll(async () => {
    await p?.close();
    await cluster?.stop();
  });

  it('when a backfill runs on the cluster, then every invoice is in billing with its content, and a deep reconcile is clean', async () => {
    const { rt } = p;
    p.startWorkers(['pull', 'upsert', 'backfill']);
    const t0 = Date.now();
    const { runId, children } = await p.backfill();
    await p.waitForBackfill(runId, 120_000);
    const took = Date.now() - t0;

    const result = await p.compareWithSource();
    expect(result.problems).toEqual([]);
    expect(result.expected + result.quarantinedByMapping.size).toBe(p.zoho.store.invoices().length);
    expect(result.inBilling).toBe(result.expected);
    expect(await rt.ledger.count(CONNECTION, 'invoices')).toBe(result.expected);
    expect(await rt.queues.upsert.getJobCounts('failed')).toEqual({ failed: 0 });
    expect(await rt.inFlight.count(CONNECTION)).toBe(0);

    // Source voids of issued invoices are for a person to mirror in billing (reconcile's void_not_reflected):
    // done here, through the billing emulator's admin route, as that person would.
    let mirrored = 0;
    for (const inv of p.zoho.store.invoices().filter((i) => i.status === 'void')) {
      const e = await rt.ledger.get(CONNECTION, 'invoices', inv.invoice_id);
      if (!e) continue;
      const res = await fetch(
        `${p.billing.url}/__admin/invoices/${encodeURIComponent(e.billingId)}/void?company=${COMPANY}`,
        { method: 'POST' },
      );
      expect(res.ok).toBe(true);
      mirrored++;
    }
    const today = utcDate(Date.now());
    const report = await runReconcile(makeJobHelpers(rt).reconcile, {
      connectionId: CONNECTION,
      from: today,
      to: today,
      deep: true,
    });
    expect(report.items).toEqual([]);
    expect(report.total).toBe(0);
    expect(report.checked.ledger).toBeGreaterThan(0);

    // The queues' keys and the connection's keys are spread over the masters, not all on one.
    const slots = new Set(
      await Promise.all(
        [`{${p.prefix}:pull}`, `{${p.prefix}:upsert}`, `{${CONNECTION}}`].map(async (tag) =>
          cluster.portOfSlot(await cluster.keySlot(tag)),
        ),
      ),
    );
    console.info(
      `[cluster e2e] backfill of ${INVOICES} invoices (${children} windows) on a 3-master cluster: ${result.inBilling} in billing in ${(took / 1000).toFixed(1)} s; ` +
        `${mirrored} source voids mirrored by hand; deep reconcile checked ${report.checked.billing} billing / ${report.checked.ledger} ledger / ${report.checked.source} source, clean; ` +
        `pull, upsert and connection keys on ${slots.size} master(s)`,
    );
  }, 180_000);

  it("when the invoices' histories are read on the cluster, then each written invoice has its own, the connection's scan finds them over the masters, and a sweep's prune runs", async () => {
    const { rt } = p;
    const written = p.zoho.store.invoices().filter((i) => p.billingInvoices().has(i.invoice_id));
    expect(written.length).toBeGreaterThan(0);
    const first = await rt.recordHistory.list(CONNECTION, 'invoices', written[0]!.invoice_id);
    expect(first.map((e) => e.outcome)).toContain('written');
    const scanned = new Set<string>();
    for await (const batch of rt.recordHistory.scan(CONNECTION))
      for (const r of batch) if (r.entity === 'invoices') scanned.add(r.erpId);
    for (const inv of written) expect(scanned.has(inv.invoice_id), inv.invoice_id).toBe(true);
    expect(await rt.recordHistory.prune(CONNECTION)).toMatchObject({ entries: 0, records: 0 });
  }, 60_000);
});
