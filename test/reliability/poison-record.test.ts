import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY, CONNECTION, type Harness, startHarness, UPSERT_PATH } from '../support/harness.js';

/**
 * P8 (docs/reliability.md): a record that cannot be synced is quarantined with
 * its reason and never stops the others.
 * - Upsert stage: an invoice a finance person deleted in billing; its next version is refused with 409
 *   ("deleted in billing"): permanent, so one call, no retry, quarantined as BILLING_CONFLICT with the
 *   service's own message.
 * - Map stage: an invoice edited at the source to amounts its own figures can no longer carry exactly
 *   (a line of 99,999,999 × 99,999,999: the source's totals stop adding up): AMOUNTS_INCONSISTENT,
 *   quarantined by the pull, never sent.
 * Meanwhile ten ordinary edits and everything else sync normally.
 */
describe('given a synced connection of 40 invoices', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({ name: 'poison', invoices: 40 });
    p.startWorkers(['pull', 'upsert', 'backfill']);
    const { runId } = await p.backfill();
    await p.waitForBackfill(runId, 60_000);
  });
  afterAll(() => p?.close());

  it('when one invoice was deleted in billing and another becomes unmappable at the source, then both are quarantined with their reasons and every other change completes', async () => {
    const { rt } = p;
    const open = p.zoho.store
      .invoices()
      .filter((i) => i.status !== 'void' && i.payments.length === 0 && i.writeOffMinor === 0);
    const [deletedInBilling, unmappable, ...rest] = open.map((i) => i.invoice_id);
    const ordinary = rest.slice(0, 10);
    const ledgerBefore = {
      deleted: await rt.ledger.get(CONNECTION, 'invoices', deletedInBilling!),
      unmappable: await rt.ledger.get(CONNECTION, 'invoices', unmappable!),
    };
    expect(ledgerBefore.deleted && ledgerBefore.unmappable).toBeTruthy();

    // A finance person deletes one invoice in billing (admin endpoint, as the emulator's UI would).
    const billingId = ledgerBefore.deleted!.billingId;
    const del = await fetch(
      `${p.billing.url}/__admin/invoices/${encodeURIComponent(billingId)}/delete?company=${COMPANY}`,
      { method: 'POST' },
    );
    expect(del.status).toBe(200);
    // The source moves on: that invoice is edited, another gets absurd amounts, ten get ordinary edits.
    p.zoho.store.editInvoice(deletedInBilling!);
    p.zoho.store.editInvoice(unmappable!, { lines: [{ index: 0, quantity: 99_999_999, rate: 99_999_999 }] });
    for (const id of ordinary) p.zoho.store.editInvoice(id);
    const since = p.journal().at(-1)?.seq ?? 0;

    await rt.queues.pull.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { priority: 1 });
    await p.waitForDrain(60_000);

    const quarantine = await rt.quarantine.list(CONNECTION);
    expect(quarantine.map((q) => q.erpId).sort()).toEqual([deletedInBilling, unmappable].sort());
    const conflict = quarantine.find((q) => q.erpId === deletedInBilling)!;
    expect(conflict).toMatchObject({ reason: 'BILLING_CONFLICT', stage: 'upsert', attempts: 1 });
    expect(conflict.message).toContain(`invoice ${billingId} was deleted in billing and cannot be upserted`);
    expect(conflict.payload).toMatchObject({ erpId: deletedInBilling, entity: 'invoices' });
    const bad = quarantine.find((q) => q.erpId === unmappable)!;
    expect(bad).toMatchObject({ reason: 'AMOUNTS_INCONSISTENT', stage: 'map' });
    expect(bad.message.length).toBeGreaterThan(10);

    // Permanent means permanent: one 409, no retry; the job failed at once with the service's message.
    const after = p.billing.journal.list({ since, path: UPSERT_PATH });
    expect(after.filter((r) => r.status === 409)).toHaveLength(1);
    // The failed job is removed once its record is quarantined (the record's next enqueue, same content
    // and so same job id, must not be deduplicated away against it); the entry keeps what it said.
    expect(await rt.queues.upsert.getJobs(['failed'])).toEqual([]);
    expect(conflict).toMatchObject({ attempts: 1 });
    expect(conflict.message).toContain('was deleted in billing');
    expect(await rt.inFlight.count(CONNECTION)).toBe(0);
    // The unmappable version never reached billing; its ledger entry (and billing) keep the last good one.
    expect(await rt.ledger.get(CONNECTION, 'invoices', unmappable!)).toEqual(ledgerBefore.unmappable);
    expect(await rt.ledger.get(CONNECTION, 'invoices', deletedInBilling!)).toEqual(ledgerBefore.deleted);

    // Everything else: billing equals the source's current version, the ten edits included.
    const result = await p.compareWithSource({ except: new Set([deletedInBilling!, unmappable!]) });
    expect(result.problems).toEqual([]);
    expect(after.filter((r) => r.status === 200)).toHaveLength(ordinary.length);

    console.info(
      `[poison] quarantined ${quarantine.map((q) => `${q.reason}@${q.stage}`).join(' and ')} ("${conflict.message}"; "${bad.message.slice(0, 120)}"); ` +
        `${ordinary.length} other edits written; ${result.expected - 1} other invoices match the source`,
    );
  }, 90_000);
});
