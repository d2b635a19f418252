import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackfill } from '../../../cli/commands/backfill.js';
import { makeJobHelpers } from '../../../app/job-helpers.js';
import { reconcileHistory, type HistoryReconcileHelpers } from '../../../jobs/reconcile/reconcile-history.js';
import type { LedgerEntry } from '../../../src/pipeline/ledger.js';
import { COMPANY, CONNECTION, HISTORY, type Harness, startHarness } from '../../support/harness.js';

/**
 * A reconciliation of the whole history as the CLI and an HTTP API call it: the vendor is read with
 * `deep` only, and only for the windows where billing's and the ledger's counts disagree.
 */
describe('given a synced connection', () => {
  let p: Harness;
  let rt: HistoryReconcileHelpers;
  let gone: [string, LedgerEntry];
  const deleteInBilling = async (e: LedgerEntry) => {
    const res = await fetch(
      `${p.billing.url}/__admin/invoices/${encodeURIComponent(e.billingId)}/delete?company=${COMPANY}`,
      { method: 'POST' },
    );
    if (!res.ok) throw new Error(`delete: ${res.status} ${await res.text()}`);
  };

  beforeAll(async () => {
    p = await startHarness({
      name: 'reconcile-history',
      invoices: 30,
      reconcile: { countInvariant: { leafRecords: 2 } },
    });
    p.startWorkers(['pull', 'upsert', 'backfill']);
    await runBackfill(
      p.rt,
      { connectionId: CONNECTION, entities: ['customers', 'invoices'], ...HISTORY },
      { quiet: true },
    );
    rt = makeJobHelpers(p.rt).reconcile;
    for await (const batch of p.rt.ledger.scan(CONNECTION, 'invoices')) {
      const live = batch.find(([, e]) => e.fields?.invoiceDate && !/void|draft/i.test(e.sourceStatus ?? ''));
      if (live) gone = live;
    }
  }, 90_000);
  afterAll(() => p?.close());

  it('when billing and the ledger agree, then no drift, and neither a deep run reads the vendor', async () => {
    const before = p.zoho.journal.list().length;
    const r = await reconcileHistory(rt, { connectionId: CONNECTION, deep: true });
    expect(r).toMatchObject({
      history: true,
      total: 0,
      vendorCalls: 0,
      windows: { compared: 1, disagreeing: [] },
      checked: { source: 0 },
    });
    expect(p.zoho.journal.list().length).toBe(before);
  }, 30_000);

  it('when an invoice is deleted in billing and in the source, then without deep it is missing_in_billing; with deep the source delete is recorded and it is no drift', async () => {
    await deleteInBilling(gone[1]);
    p.zoho.store.deleteInvoice(gone[0], { force: true });

    const plain = await reconcileHistory(rt, { connectionId: CONNECTION });
    expect(plain.items).toEqual([expect.objectContaining({ kind: 'missing_in_billing', erpId: gone[0] })]);
    expect(plain.vendorCalls).toBe(0);

    const deep = await reconcileHistory(rt, { connectionId: CONNECTION, deep: true });
    expect(deep.total).toBe(0);
    expect(deep.windows.disagreeing).toEqual(plain.windows.disagreeing);
    expect(deep.vendorCalls).toBeGreaterThan(0);
    // Read by id: the window's other records, which the source still holds (the deleted one is absent).
    expect(deep.checked.source).toBe(deep.windows.disagreeing[0]!.ledger - 1);
    expect((await p.rt.ledger.get(CONNECTION, 'invoices', gone[0]))?.sourceDeletedAt).toBeDefined();
  }, 30_000);
});
