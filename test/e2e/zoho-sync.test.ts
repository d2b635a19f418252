import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillingBody, MapContext, ReadContext } from '../../src/connector/types.js';
import type { ZohoEmulator } from '../../sandbox/zoho-books/index.js';
import { runBackfill } from '../../cli/commands/backfill.js';
import { waitForDrain } from '../../cli/drain.js';
import { reconcileFields } from '../../jobs/pull/reconcile-fields.js';
import { compareFields } from '../../jobs/reconcile/compare-fields.js';
import type { Runtime } from '../../jobs/runtime.js';
import type { InvoiceRecord } from '../../src/billing/schemas/index.js';
import { type Harness, startHarness } from '../support/harness.js';

// Enough for many pages of every list (200 a page); the same path at scale is `npm run bench:at-scale` (5,000
// invoices per vendor) and `npm run bench:memory` (up to 1,000,000).
const INVOICES = 1500;

/** Billing's invoices for this origin source, by ERP id (walking every page). */
async function billingByErpId(rt: Runtime): Promise<Map<string, InvoiceRecord>> {
  const out = new Map<string, InvoiceRecord>();
  for await (const page of rt.billing.iterateInvoicePages({
    originSource: ['EXTERNAL_SYSTEM_A'],
    lifecycleStatuses: ['DRAFT', 'FINALIZED', 'VOIDED'],
    pageSize: 500,
  })) {
    for (const d of page.docs) {
      expect(out.has(d.erpId!), `duplicate billing invoice for ERP ${d.erpId}`).toBe(false);
      out.set(d.erpId!, d);
    }
  }
  return out;
}

/** The expected mapping of the source as it is now: read it whole and map every invoice. */
async function expectedFromSource(
  rt: Runtime,
): Promise<{ mapped: Map<string, BillingBody>; quarantined: Set<string> }> {
  const { connector, config: c } = rt.connection('zoho-e2e');
  const stream = connector.streams.invoices;
  const ctx: ReadContext = {
    connectionId: c.id,
    http: rt.vendorClient(c.id),
    logger: rt.logger,
    until: new Date(),
    settings: c.settings,
  };
  const mapCtx: MapContext = {
    connectionId: c.id,
    originSource: c.originSource,
    baseCurrency: 'INR',
    lookups: await stream.lookups!(ctx),
  };
  const mapped = new Map<string, BillingBody>();
  const quarantined = new Set<string>();
  for await (const page of stream.read(ctx, stream.initialState(undefined))) {
    for (const r of page.records) {
      const m = stream.map(r, mapCtx);
      if (m.ok) mapped.set(r.id, m.value);
      else quarantined.add(r.id);
    }
  }
  return { mapped, quarantined };
}

describe(`end to end on real Redis and the emulators: Zoho Books (${INVOICES} invoices) → billing`, () => {
  let h: Harness;
  let zoho: ZohoEmulator;
  let rt: Runtime;
  const upsertPosts = async () => h.upsertPosts();

  beforeAll(async () => {
    h = await startHarness({
      name: 'e2e',
      connections: [
        {
          system: 'zoho-books',
          id: 'zoho-e2e',
          seed: 11,
          invoices: INVOICES,
          customers: 100,
          emulator: { creditNotes: 120 },
          entities: ['customers', 'invoices', 'credit-notes'],
          // Lookups cached as a worker caches them: read once, not once per page.
          settings: { lookupsCacheSeconds: 3600 },
        },
      ],
      // A long run: the service's own job locks, not the harness's short ones (made for tests that kill workers).
      sync: { upsertConcurrency: 32, backoffMs: 50, lockDurationMs: 30_000, stalledIntervalMs: 30_000 },
    });
    rt = h.rt;
    zoho = h.emulatorOf('zoho-e2e', 'zoho-books');
    h.startWorkers(['pull', 'upsert', 'backfill']);
  }, 60_000);
  afterAll(() => h?.close());

  it('given a backfill of the whole history, then billing equals the expected mapping of the source, record for record', async () => {
    const report = await runBackfill(
      rt,
      {
        connectionId: 'zoho-e2e',
        entities: ['customers', 'invoices', 'credit-notes'],
        from: '2025-01-01',
        to: '2025-12-31',
      },
      { quiet: true },
    );
    expect(report.pulled).toBeGreaterThanOrEqual(INVOICES);

    const { mapped, quarantined } = await expectedFromSource(rt);
    const inBilling = await billingByErpId(rt);
    expect(mapped.size + quarantined.size).toBe(zoho.store.invoices().length);
    expect(inBilling.size).toBe(mapped.size);
    const mismatches: string[] = [];
    for (const [erpId, body] of mapped) {
      const rec = inBilling.get(erpId);
      if (!rec) {
        mismatches.push(`${erpId}: missing in billing`);
        continue;
      }
      const diffs = compareFields(reconcileFields(body)!, rec);
      if (diffs.length) mismatches.push(`${erpId}: ${diffs.join('; ')}`);
    }
    expect(mismatches).toEqual([]);
    // Every quarantined record says why, and none was refused by billing: credit notes wait for the
    // invoices they apply to instead of racing them.
    for (const q of await rt.quarantine.list('zoho-e2e')) {
      expect(q.reason).toMatch(/^[A-Z_]+$/);
      expect(q.stage, `${q.entity}/${q.erpId}: ${q.reason} ${q.message}`).toBe('map');
    }
    const creditNotes = zoho.store.creditNotes().filter((c) => c.status !== 'draft');
    expect(await rt.ledger.count('zoho-e2e', 'credit-notes')).toBeGreaterThanOrEqual(
      creditNotes.length - (await rt.quarantine.list('zoho-e2e')).filter((q) => q.entity === 'credit-notes').length,
    );
  }, 240_000);

  it('given nothing changed in the source, when the whole backfill runs again, then billing receives no upsert', async () => {
    const before = await upsertPosts();
    const report = await runBackfill(
      rt,
      { connectionId: 'zoho-e2e', entities: ['invoices', 'credit-notes'], from: '2025-01-01', to: '2025-12-31' },
      { restart: true, quiet: true },
    );
    if (report.enqueued > 0) {
      // Diagnose: bodies of the same record from the first and the second run.
      const jobs = await rt.queues.upsert.getJobs(['completed'], 0, 20000);
      const byErp = new Map<string, Array<{ hash: string; body: unknown; entity: string }>>();
      for (const j of jobs) {
        const d = j.data as { erpId: string; hash: string; body: unknown; entity: string };
        byErp.set(`${d.entity}/${d.erpId}`, [...(byErp.get(`${d.entity}/${d.erpId}`) ?? []), d]);
      }
      const { diff } = await import('node:util').then(() => ({
        diff: (a: unknown, b: unknown) => {
          const fa = JSON.stringify(a, null, 1).split('\n');
          const fb = JSON.stringify(b, null, 1).split('\n');
          return (
            fa
              .filter((l, i) => l !== fb[i])
              .slice(0, 6)
              .join(' | ') +
            ' <> ' +
            fb
              .filter((l, i) => l !== fa[i])
              .slice(0, 6)
              .join(' | ')
          );
        },
      }));
      for (const [k, v] of byErp)
        if (new Set(v.map((x) => x.hash)).size > 1) console.log('CHANGED', k, diff(v[0]!.body, v[1]!.body));
    }
    expect(report.enqueued).toBe(0);
    expect(report.unchanged).toBeGreaterThanOrEqual(INVOICES - 50);
    expect(await upsertPosts()).toBe(before);
  }, 240_000);

  it('given a batch of source changes (edits, payments, voids, new invoices, several in one second), when the incremental sync runs, then exactly the changed invoices are written', async () => {
    const store = zoho.store;
    const open = store
      .invoices()
      .filter((i) => i.status !== 'void' && i.status !== 'draft' && i.payments.length === 0 && i.writeOffMinor === 0);
    const credited = new Set(store.creditNotes().flatMap((c) => c.applications.map((a) => a.invoice_id)));
    const candidates = open.filter((i) => !credited.has(i.invoice_id)).map((i) => i.invoice_id);
    const edited = candidates.slice(0, 5);
    const paid = candidates.slice(5, 8);
    const voided = candidates.slice(8, 10);
    const sameSecond = candidates.slice(10, 16);
    for (const id of edited) store.editInvoice(id);
    for (const id of paid) store.recordPayment(id);
    for (const id of voided) store.voidInvoice(id);
    store.editInvoicesInSameSecond(sameSecond);
    const created = [store.createInvoice({}), store.createInvoice({})].map((r) => r.id);
    const changed = new Set([...edited, ...paid, ...voided, ...sameSecond, ...created]);

    const t0 = Date.now();
    const before = await upsertPosts();
    await rt.queues.pull.add('pull', { connectionId: 'zoho-e2e', entity: 'invoices' }, { priority: 1 });
    await waitForDrain(rt);
    const written = new Set<string>();
    for await (const batch of rt.ledger.scan('zoho-e2e', 'invoices'))
      for (const [id, e] of batch) if (e.writtenAt >= t0) written.add(id);
    expect([...written].sort()).toEqual([...changed].sort());
    expect((await upsertPosts()) - before).toBe(changed.size);

    const inBilling = await billingByErpId(rt);
    for (const id of created) expect(inBilling.has(id)).toBe(true);
    for (const id of voided) expect((await rt.ledger.get('zoho-e2e', 'invoices', id))?.sourceStatus).toBe('void');
    // The ERP's share link is attached once as INVOICE_FOR_BUYER, however often the invoice is re-synced.
    for (const id of [...edited, ...created]) {
      const list = await rt.billing.listInvoiceAttachments({
        invoiceNumber: inBilling.get(id)!.invoiceNumber,
        attachmentPurpose: 'INVOICE_FOR_BUYER',
      });
      expect(list.attachments.map((a) => a.filename)).toEqual([`${id}.pdf`]);
    }
  }, 240_000);
});
