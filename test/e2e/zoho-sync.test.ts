import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateSettings } from '../../connectors/registry.js';
import type { BillingBody, MapContext, ReadContext } from '../../src/connector/types.js';
import { startZohoEmulator, ZOHO_SANDBOX_DEFAULTS, type ZohoEmulator } from '../../sandbox/zoho-books/index.js';
import { runBackfill } from '../../cli/commands/backfill.js';
import { waitForDrain } from '../../cli/drain.js';
import { reconcileFields } from '../../jobs/pull/reconcile-fields.js';
import { compareFields } from '../../jobs/reconcile/compare-fields.js';
import { createRuntime } from '../../app/create-runtime.js';
import type { Runtime } from '../../jobs/runtime.js';
import { startWorkers, type WorkerService } from '../../app/worker-service.js';
import type { InvoiceRecord } from '../../src/billing/schemas/index.js';
import { parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { startBillingEmulator, type BillingEmulator } from '../../sandbox/billing/billing-emulator.js';
import { dropPrefix, TEST_REDIS_URL } from '../support/redis.js';

// Enough for many pages of every list (200 a page); the same path at scale is `npm run bench:at-scale` (5,000
// invoices per vendor) and `npm run bench:memory` (up to 1,000,000).
const INVOICES = 1500;
const KEY = 'e2e-key';

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
  const prefix = `test-e2e-${randomBytes(4).toString('hex')}`;
  let billing: BillingEmulator;
  let zoho: ZohoEmulator;
  let rt: Runtime;
  let workers: WorkerService;
  const upsertPosts = async () => {
    const res = (await (await fetch(`${billing.url}/__admin/journal?path=/external/invoice/upsert`)).json()) as {
      entries: Array<{ status: number }>;
    };
    return res.entries.filter((e) => e.status === 200).length;
  };

  beforeAll(async () => {
    billing = await startBillingEmulator({
      port: 0,
      keys: [{ key: KEY, companyId: 'e2e' }],
      attachmentKeys: [{ key: `${KEY}-a`, companyId: 'e2e' }],
    });
    zoho = await startZohoEmulator({
      port: 0,
      seed: 11,
      records: INVOICES,
      customers: 100,
      creditNotes: 120,
      ratePerMinute: 0,
      dailyLimit: 0,
    });
    const d = ZOHO_SANDBOX_DEFAULTS;
    const config = parseConfig(
      {
        billing: {
          url: billing.url,
          apiKey: KEY,
          attachmentKey: `${KEY}-a`,
          rateLimit: { max: 5000, durationMs: 1000 },
        },
        redis: { url: TEST_REDIS_URL, prefix },
        sync: { upsertConcurrency: 32, backlogHighWater: 5000, backoffMs: 50 },
        connections: [
          {
            id: 'zoho-e2e',
            system: 'zoho-books',
            originSource: 'EXTERNAL_SYSTEM_A',
            lookbackSeconds: 60,
            settleDelaySeconds: 0,
            // This run checks every generated invoice arrives, drafts too (test/jobs/drafts.test.ts: the default).
            syncDrafts: true,
            rateBudget: { perMinute: 1_000_000, concurrency: 8 },
            settings: {
              organizationId: zoho.organizationId,
              clientId: d.clientId,
              clientSecret: d.clientSecret,
              refreshToken: d.refreshToken,
              baseUrl: zoho.apiBase,
              accountsUrl: zoho.url,
              dailyCallLimit: 0,
            },
          },
        ],
      },
      {},
      validateSettings,
    );
    rt = await createRuntime(config, TEST_REDIS_URL, createLogger({ level: 'warn', format: 'json' }));
    workers = startWorkers(rt, ['pull', 'upsert', 'backfill']);
  }, 60_000);

  afterAll(async () => {
    await workers?.stop(5_000);
    await rt?.close();
    const { connect } = await import('../support/redis.js');
    const r = connect();
    await dropPrefix(r, prefix);
    await r.quit();
    await zoho?.close();
    await billing?.close();
  });

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
