import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackfill } from '../../../cli/commands/backfill.js';
import { waitForDrain } from '../../../cli/drain.js';
import type { WorkerService } from '../../../app/worker-service.js';
import { runReconcile } from '../../../jobs/reconcile/run-reconcile.js';
import { addDays, utcDate } from '../../../src/billing/dates.js';
import { CONNECTION, HISTORY, type Harness, startHarness } from '../../support/harness.js';

/**
 * A ledger entry ahead of its source: the state a Zoho `deleted` delivery dated 9999-12-31 left before
 * delivery times were bounded and deletes confirmed (the entry marked deleted at that version, so every
 * later edit looked older and was never written). A deep reconcile reports it as
 * `ledger_ahead_of_source`; its repair reads the record again, sets the ledger back to the source's
 * version and writes it: billing then holds the edit made meanwhile. Zoho Books emulator and billing
 * emulator, real workers.
 */
describe('given a synced invoice whose ledger entry a far-future delete froze, and an edit made in the source since', () => {
  let p: Harness;
  let workers: WorkerService;
  let id: string;
  // The edit is dated yesterday noon and reconciled in yesterday's window: no midnight falls in between.
  const yesterday = addDays(utcDate(Date.now()), -1);
  const FUTURE = '9999-12-31T23:59:59.000Z';
  const reconcile = (repair = false) =>
    runReconcile(p.rt, { connectionId: CONNECTION, from: yesterday, to: yesterday, deep: true, repair });

  beforeAll(async () => {
    p = await startHarness({ name: 'ledger-ahead', invoices: 8 });
    workers = p.startWorkers(['pull', 'upsert', 'backfill']);
    await runBackfill(
      p.rt,
      { connectionId: CONNECTION, entities: ['customers', 'invoices'], ...HISTORY },
      { quiet: true },
    );
    const inv = p.zoho.store
      .invoices()
      .find((i) => i.status !== 'void' && i.status !== 'draft' && i.payments.length === 0 && i.writeOffMinor === 0)!;
    id = inv.invoice_id;
    // What the unconfirmed delete did to the entry: marked deleted, its version bumped to the body's time.
    expect(await p.rt.ledger.markSourceDeleted(CONNECTION, 'invoices', id, FUTURE, { bumpVersion: true })).toBe(true);
    p.zoho.store.mutate({ op: 'edit_invoice', invoice_id: id }, { at: `${yesterday}T12:00:00Z` });
  }, 120_000);
  afterAll(async () => {
    await workers?.stop(5_000);
    await p?.close();
  });

  it('when a deep reconcile runs, then it reports the entry as ledger_ahead_of_source (fixable), not ok', async () => {
    const r = await reconcile();
    const items = r.items.filter((i) => i.erpId === id);
    expect(items.map((i) => i.kind)).toEqual(['ledger_ahead_of_source']);
    expect(items[0]).toMatchObject({ needsPerson: false });
    expect(items[0]!.detail).toMatch(
      /^ledger holds deleted at 9999-12-31T23:59:59.000Z .*; the source has it live at /,
    );
    expect(r.counts.ledger_ahead_of_source).toBe(1);
  }, 60_000);

  it('when a normal reconcile (no source read) covers the day billing got it, then the future ledger version alone is reported as ledger_ahead_of_source', async () => {
    const around = { from: yesterday, to: addDays(yesterday, 2) };
    const r = await runReconcile(p.rt, { connectionId: CONNECTION, ...around, deep: false });
    const items = r.items.filter((i) => i.erpId === id);
    expect(items.map((i) => i.kind)).toEqual(['ledger_ahead_of_source']);
    expect(items[0]!.detail).toBe(`ledger version ${FUTURE} is in the future, marked deleted at ${FUTURE}`);
  }, 60_000);

  it('when it runs with repair, then the record is read again and written: the ledger holds the source’s version, no delete, and billing the edit', async () => {
    const r = await reconcile(true);
    expect(r.repaired?.records?.find((o) => o.erpId === id)).toMatchObject({ action: 're-enqueued' });
    await waitForDrain(p.rt);
    const entry = await p.rt.ledger.get(CONNECTION, 'invoices', id);
    expect(entry?.sourceDeletedAt).toBeUndefined();
    expect(entry?.version).not.toBe(FUTURE);
    expect((await p.compareWithSource()).problems.filter((x) => x.startsWith(`${id}:`))).toEqual([]);
    const again = await reconcile();
    expect(again.items.filter((i) => i.erpId === id)).toEqual([]);
    expect(again.counts.ledger_ahead_of_source).toBe(0);
    const normal = await runReconcile(p.rt, {
      connectionId: CONNECTION,
      from: yesterday,
      to: addDays(yesterday, 2),
      deep: false,
    });
    expect(normal.items.filter((i) => i.erpId === id)).toEqual([]);
  }, 60_000);
});
