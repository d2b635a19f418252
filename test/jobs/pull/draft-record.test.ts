import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETURNED_TO_DRAFT } from '../../../jobs/pull/draft-record.js';
import type { PullResult } from '../../../jobs/pull/types.js';
import type { WorkerService } from '../../../app/worker-service.js';
import { runReconcile } from '../../../jobs/reconcile/run-reconcile.js';
import { utcDate } from '../../../src/billing/dates.js';
import { CONNECTION, type Harness, startHarness } from '../../support/harness.js';

/**
 * Drafts are not receivables (`syncDrafts: false`, the default): a Zoho draft is skipped and counted,
 * never quarantined; it syncs once issued; an invoice that goes back to draft after billing has it is
 * quarantined for a person as RETURNED_TO_DRAFT, and syncs again (clearing that entry) once re-issued.
 */
describe('given a Zoho connection with syncDrafts: false and a history holding drafts', () => {
  let p: Harness;
  let workers: WorkerService;
  const pull = async (entity: 'customers' | 'invoices' = 'invoices'): Promise<PullResult> => {
    const job = await p.rt.queues.pull.add('pull', { connectionId: CONNECTION, entity }, { priority: 1 });
    await p.waitForDrain();
    const done = await p.rt.queues.pull.getJob(job.id!);
    expect(await done?.getState()).toBe('completed');
    return done!.returnvalue as PullResult;
  };
  /** Zoho stamps whole seconds: an edit must fall in a later second than the version billing holds. */
  const nextSecond = async () => {
    const s = Math.floor(Date.now() / 1000);
    await new Promise<void>((resolve) => {
      const check = () => (Math.floor(Date.now() / 1000) > s ? resolve() : setImmediate(check));
      check();
    });
  };
  const drafts = () => p.zoho.store.invoices().filter((i) => i.status === 'draft');
  const skippedDrafts = async () =>
    (await p.rt.metrics.recordsSkipped.get()).values
      .filter((v) => v.labels.connection === CONNECTION && v.labels.reason === 'draft')
      .reduce((a, v) => a + v.value, 0);
  let first: PullResult;

  beforeAll(async () => {
    p = await startHarness({ name: 'drafts', invoices: 60, syncDrafts: false });
    workers = p.startWorkers(['pull', 'upsert']);
    await pull('customers');
    first = await pull();
  }, 120_000);
  afterAll(async () => {
    await workers?.stop(5_000);
    await p?.close();
  });

  it('when the invoices are pulled, then every draft is counted as skipped (result and metric), none reaches billing, and none is quarantined', async () => {
    const ids = drafts().map((i) => i.invoice_id);
    expect(ids.length).toBeGreaterThan(0);
    expect(first.drafts).toBe(ids.length);
    expect(await skippedDrafts()).toBe(ids.length);
    const billing = p.billingInvoices();
    expect(ids.filter((id) => billing.has(id))).toEqual([]);
    const quarantined = new Set((await p.rt.quarantine.list(CONNECTION)).map((e) => e.erpId));
    expect(ids.filter((id) => quarantined.has(id))).toEqual([]);
    expect(billing.size + quarantined.size + ids.length).toBe(p.zoho.store.invoices().length);
  });

  it('when a draft is issued in the ERP, then the next pull writes it to billing', async () => {
    const id = drafts()[0]!.invoice_id;
    await nextSecond();
    p.zoho.store.editInvoice(id, { mark_as_sent: true });
    const r = await pull();
    expect(r.enqueued).toBeGreaterThanOrEqual(1);
    expect(p.billingInvoices().has(id)).toBe(true);
    expect(await p.rt.quarantine.get(CONNECTION, 'invoices', id)).toBeUndefined();
  });

  it('when an issued invoice in billing goes back to draft in the ERP, then it is quarantined as RETURNED_TO_DRAFT for a person, billing keeps it, and re-issuing it clears the entry', async () => {
    const billing = p.billingInvoices();
    const inv = p.zoho.store
      .invoices()
      .find(
        (i) =>
          billing.has(i.invoice_id) &&
          i.status !== 'void' &&
          i.status !== 'draft' &&
          i.payments.length === 0 &&
          i.writeOffMinor === 0 &&
          p.zoho.store.creditsAppliedMinor(i.invoice_id) === 0,
      )!;
    expect(inv).toBeDefined();
    await nextSecond();
    p.zoho.store.editInvoice(inv.invoice_id, { mark_as_draft: true });
    const r = await pull();
    expect(r.quarantined).toBeGreaterThanOrEqual(1);
    const entry = await p.rt.quarantine.get(CONNECTION, 'invoices', inv.invoice_id);
    expect(entry).toMatchObject({ reason: RETURNED_TO_DRAFT, stage: 'map' });
    expect(entry!.message).toMatch(/back to draft in the ERP .* issue it again in the ERP, or void it in billing/);
    expect(p.billingInvoices().has(inv.invoice_id)).toBe(true);

    // A repair of it (reconcile --repair reads it by id) reports it as quarantined, not re-enqueued.
    const today = utcDate(Date.now());
    const rec = await runReconcile(p.rt, {
      connectionId: CONNECTION,
      from: today,
      to: today,
      deep: true,
      repair: true,
    });
    // Deep mode compares the source: no other draft is reported missing from billing.
    expect(rec.items.filter((i) => i.kind === 'missing_in_billing')).toEqual([]);
    expect(rec.repaired?.records?.find((o) => o.erpId === inv.invoice_id)).toMatchObject({
      action: 'quarantined',
      reason: RETURNED_TO_DRAFT,
    });

    await nextSecond();
    p.zoho.store.editInvoice(inv.invoice_id, { mark_as_sent: true });
    await pull();
    await p.waitForDrain();
    expect(await p.rt.quarantine.get(CONNECTION, 'invoices', inv.invoice_id)).toBeUndefined();
    expect((await p.rt.ledger.get(CONNECTION, 'invoices', inv.invoice_id))?.sourceStatus).not.toBe('draft');
  });
});
