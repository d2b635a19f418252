import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackfill } from '../../../cli/commands/backfill.js';
import { runReconcile } from '../../../jobs/reconcile/run-reconcile.js';
import { utcDate } from '../../../src/billing/dates.js';
import { COMPANY, CONNECTION, HISTORY, type Harness, startHarness } from '../../support/harness.js';

/**
 * A void made in billing of an invoice the source still holds as live: no upsert changes a lifecycle,
 * so no sync can undo it, and a receivable would disappear from billing without a trace. Reconcile
 * reports it as its own kind, for a person, in normal and deep mode, and a repair leaves it alone.
 */
describe('given a synced connection, one of whose live invoices a billing user voids', () => {
  let p: Harness;
  const today = utcDate(Date.now());
  const admin = async (path: string) => {
    const res = await fetch(`${p.billing.url}/__admin${path}?company=${COMPANY}`, { method: 'POST' });
    if (!res.ok) throw new Error(`admin ${path}: ${res.status} ${await res.text()}`);
  };
  beforeAll(async () => {
    p = await startHarness({ name: 'billing-void', invoices: 30, customers: 5 });
    p.startWorkers(['pull', 'upsert', 'backfill']);
    await runBackfill(
      p.rt,
      { connectionId: CONNECTION, entities: ['customers', 'invoices'], ...HISTORY },
      { quiet: true },
    );
    // The source's own voids are mirrored in billing (a person's standing task), so they are not drift.
    for (const inv of p.zoho.store.invoices().filter((i) => i.status === 'void')) {
      const e = await p.rt.ledger.get(CONNECTION, 'invoices', inv.invoice_id);
      if (e) await admin(`/invoices/${encodeURIComponent(e.billingId)}/void`);
    }
  }, 90_000);
  afterAll(() => p?.close());

  it('when reconciled (normal, deep, with repair), then exactly that invoice is reported as void_in_billing_only, needing a person, and stays reported', async () => {
    const live = p.zoho.store.invoices().find((i) => i.status !== 'void' && i.status !== 'draft')!;
    const entry = (await p.rt.ledger.get(CONNECTION, 'invoices', live.invoice_id))!;
    await admin(`/invoices/${encodeURIComponent(entry.billingId)}/void`);

    for (const deep of [false, true]) {
      const r = await runReconcile(p.rt, { connectionId: CONNECTION, from: today, to: today, deep });
      expect(r.counts.void_in_billing_only).toBe(1);
      expect(r.items.filter((i) => i.kind === 'void_in_billing_only')).toEqual([
        expect.objectContaining({ erpId: live.invoice_id, invoiceId: entry.billingId, needsPerson: true }),
      ]);
      expect(r.total).toBe(1);
    }
    const repaired = await runReconcile(p.rt, { connectionId: CONNECTION, from: today, to: today, repair: true });
    expect(repaired.repaired).toBeUndefined();
    const again = await runReconcile(p.rt, { connectionId: CONNECTION, from: today, to: today });
    expect(again.counts.void_in_billing_only).toBe(1);
  }, 60_000);
});
