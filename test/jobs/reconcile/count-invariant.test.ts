import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackfill } from '../../../cli/commands/backfill.js';
import { runCountInvariant } from '../../../jobs/reconcile/count-invariant.js';
import { DriftReport } from '../../../jobs/reconcile/drift.js';
import type { HistoryHelpers } from '../../../jobs/reconcile/invoice-date-window.js';
import { makeJobHelpers } from '../../../app/job-helpers.js';
import { COMPANY, CONNECTION, HISTORY, type Harness, startHarness } from '../../support/harness.js';

/**
 * The count invariant: billing's counts by origin source and invoice-date window against the ledger's,
 * halved where they differ, so the one window holding a missing record is listed, not the history.
 */
describe('given a synced connection, one of whose invoices a billing user deletes', () => {
  let p: Harness;
  let history: HistoryHelpers;
  const admin = async (path: string) => {
    const res = await fetch(`${p.billing.url}/__admin${path}?company=${COMPANY}`, { method: 'POST' });
    if (!res.ok) throw new Error(`admin ${path}: ${res.status} ${await res.text()}`);
  };
  beforeAll(async () => {
    p = await startHarness({
      name: 'count-invariant',
      invoices: 60,
      customers: 6,
      reconcile: { countInvariant: { leafRecords: 2 } },
    });
    p.startWorkers(['pull', 'upsert', 'backfill']);
    await runBackfill(
      p.rt,
      { connectionId: CONNECTION, entities: ['customers', 'invoices'], ...HISTORY },
      { quiet: true },
    );
    history = makeJobHelpers(p.rt).reconcile.history;
  }, 90_000);
  afterAll(() => p?.close());

  it('when billing and the ledger agree, then the counts match and three listing calls are made', async () => {
    const report = new DriftReport();
    const r = await runCountInvariant(history, CONNECTION, report);
    expect(r.billing).toBe(r.ledger);
    expect(r.ledger).toBeGreaterThan(0);
    expect(r.narrowed).toEqual([]);
    expect(r.calls).toBe(3);
    expect(report.total).toBe(0);
  }, 30_000);

  it('when one invoice is deleted in billing, then the narrowed window holds its date and it alone is reported as missing_in_billing', async () => {
    const entry = (await p.rt.ledger.get(CONNECTION, 'invoices', p.zoho.store.invoices()[7]!.invoice_id))!;
    await admin(`/invoices/${encodeURIComponent(entry.billingId)}/delete`);
    const report = new DriftReport();
    const r = await runCountInvariant(history, CONNECTION, report);
    expect(r.ledger - r.billing).toBe(1);
    expect(r.narrowed).toHaveLength(1);
    const [from, to] = r.narrowed[0]!.window.split('..');
    expect(from! <= entry.fields!.invoiceDate! && entry.fields!.invoiceDate! <= to!).toBe(true);
    expect(r.narrowed[0]).toMatchObject({ ledger: expect.any(Number), billing: r.narrowed[0]!.ledger - 1 });
    expect(report.items).toEqual([expect.objectContaining({ kind: 'missing_in_billing', invoiceId: entry.billingId })]);
    expect(report.total).toBe(1);
  }, 30_000);
});
