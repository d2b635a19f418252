import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBackfillSummary } from '../../jobs/backfill/backfill-processor.js';
import { runReconcile } from '../../jobs/reconcile/run-reconcile.js';
import { utcDate } from '../../src/billing/dates.js';
import { decodeLedgerEntry } from '../../src/pipeline/ledger-entry-codec.js';
import { COMPANY, CONNECTION, type Harness, startHarness } from '../support/harness.js';

/**
 * Upgrading to the compact ledger entry re-writes nothing: entries an earlier release wrote as plain JSON
 * stay as they are, a pull still finds them unchanged (same content hash), reconciliation compares the
 * same fields, and only a record written again is stored in the compact form.
 */
describe('given a synced history whose ledger entries an earlier release wrote as plain JSON', () => {
  let p: Harness;
  const entities = ['customers', 'invoices'] as const;
  const ledgerKey = (entity: string) => p.rt.keys.ledger(CONNECTION, entity);
  const raws = async () =>
    Object.fromEntries(await Promise.all(entities.map(async (e) => [e, await p.redis.hgetall(ledgerKey(e))] as const)));
  const isCompact = (raw: string) => 'w' in (JSON.parse(raw) as object);
  const reconcileToday = () =>
    runReconcile(p.rt, { connectionId: CONNECTION, from: utcDate(Date.now()), to: utcDate(Date.now()), deep: true });

  beforeAll(async () => {
    p = await startHarness({ name: 'ledger-upgrade', invoices: 40 });
    p.startWorkers(['pull', 'upsert', 'backfill']);
    const { runId } = await p.backfill();
    await p.waitForBackfill(runId, 60_000);
    // Source voids mirrored in billing by a person (no sync can void there), so reconciliation starts clean.
    for (const inv of p.zoho.store.invoices().filter((i) => i.status === 'void')) {
      const e = await p.rt.ledger.get(CONNECTION, 'invoices', inv.invoice_id);
      if (e)
        await fetch(`${p.billing.url}/__admin/invoices/${encodeURIComponent(e.billingId)}/void?company=${COMPANY}`, {
          method: 'POST',
        });
    }
    // What this release wrote, rewritten as the earlier release stored it: the plain JSON of the same entry.
    for (const [entity, entries] of Object.entries(await raws())) {
      for (const [erpId, raw] of Object.entries(entries)) {
        expect(isCompact(raw)).toBe(true);
        await p.redis.hset(ledgerKey(entity), erpId, JSON.stringify(decodeLedgerEntry(erpId, raw)));
      }
    }
  }, 120_000);
  afterAll(() => p?.close());

  it('when the whole history is pulled again, then every record is unchanged: nothing is enqueued or sent, and no entry is re-written', async () => {
    const before = await raws();
    expect(Object.keys(before.invoices!).length).toBeGreaterThan(20);
    const seq = p.journal().at(-1)?.seq ?? 0;
    const again = await p.backfill({ restart: true });
    await p.waitForBackfill(again.runId, 60_000);
    const summary = await readBackfillSummary(p.rt, again.runId);
    expect(summary.pulled).toBeGreaterThan(0);
    expect(summary).toMatchObject({ enqueued: 0, unchanged: summary.pulled - summary.quarantined });
    expect(p.billing.journal.list({ since: seq }).filter((e) => e.method === 'POST')).toEqual([]);
    expect(await raws()).toEqual(before);
  }, 90_000);

  it('when reconciliation compares billing with the plain entries, then it finds no drift', async () => {
    const r = await reconcileToday();
    expect(r.total).toBe(0);
    expect(r.checked.billing).toBe(await p.rt.ledger.count(CONNECTION, 'invoices'));
  }, 60_000);

  it('when one invoice changes in the source and is pulled, then only its entry is written again, in the compact form, with the new content hash, and reconciliation still finds no drift', async () => {
    const before = await raws();
    const id = p.zoho.store.invoices().find((i) => i.status === 'sent' && before.invoices![i.invoice_id])!.invoice_id;
    const old = decodeLedgerEntry(id, before.invoices![id]!);
    p.zoho.store.editInvoice(id);
    await p.rt.queues.pull.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { priority: 1 });
    await p.waitForDrain();

    const after = await raws();
    expect(isCompact(after.invoices![id]!)).toBe(true);
    const written = decodeLedgerEntry(id, after.invoices![id]!);
    expect(written.hash).not.toBe(old.hash);
    expect(written.fields?.invoiceNumber).toBe(old.fields?.invoiceNumber);
    expect(written.fields?.erpId).toBe(id);
    const { [id]: _changed, ...othersAfter } = after.invoices!;
    const { [id]: _was, ...othersBefore } = before.invoices!;
    expect(othersAfter).toEqual(othersBefore);
    expect(after.customers).toEqual(before.customers);

    const r = await reconcileToday();
    expect(r.total).toBe(0);
  }, 90_000);
});
