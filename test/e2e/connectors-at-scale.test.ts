import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackfill } from '../../cli/commands/backfill.js';
import { type DemoErp, startQuickBooksDemo, startXeroDemo } from '../../cli/demo/sandbox-erps.js';
import { validateSettings } from '../../connectors/registry.js';
import type { BillingBody, MapContext, ReadContext } from '../../src/connector/types.js';
import { compareFields } from '../../jobs/reconcile/compare-fields.js';
import { reconcileFields } from '../../jobs/reconcile-fields.js';
import { createRuntime, type Runtime } from '../../jobs/runtime.js';
import { startWorkers, type WorkerService } from '../../jobs/worker-service.js';
import { addDays, utcDate } from '../../src/billing/dates.js';
import { parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { startBillingEmulator, type BillingEmulator } from '../../sandbox/billing/billing-emulator.js';
import { connect, dropPrefix, TEST_REDIS_URL } from '../support/redis.js';

const INVOICES = 5000;

// The generators also delete some invoices (QuickBooks) and make bills (Xero ACCPAY, not receivables):
// ask for more records to keep at least 5,000 sales invoices.
describe.each([
  ['quickbooks', startQuickBooksDemo, 5_200],
  ['xero', startXeroDemo, 6_500],
] as const)('end to end at scale: %s → billing', (_name, start, records) => {
  const prefix = `test-e2e-${_name}-${randomBytes(3).toString('hex')}`;
  let billing: BillingEmulator;
  let erp: DemoErp;
  let rt: Runtime;
  let workers: WorkerService;
  const upsertPosts = async () => {
    const res = (await (await fetch(`${billing.url}/__admin/journal?path=/external/invoice/upsert`)).json()) as { entries: Array<{ status: number }> };
    return res.entries.filter((e) => e.status === 200).length;
  };

  beforeAll(async () => {
    billing = await startBillingEmulator({ port: 0, keys: [{ key: 'k', companyId: 'c' }] });
    erp = await start(records, 23);
    const config = parseConfig(
      {
        billing: { url: billing.url, apiKey: 'k', rateLimit: { max: 5000 } },
        redis: { url: TEST_REDIS_URL, prefix },
        sync: { upsertConcurrency: 32, backlogHighWater: 5000, backoffMs: 50, dependencyWaitSeconds: 60 },
        connections: [erp.connection()],
      },
      {},
      validateSettings,
    );
    rt = await createRuntime(config, TEST_REDIS_URL, createLogger({ level: 'silent', format: 'json' }));
    workers = startWorkers(rt, ['pull', 'upsert', 'backfill']);
  }, 120_000);
  afterAll(async () => {
    await workers?.stop(5_000);
    await rt?.close();
    const r = connect();
    await dropPrefix(r, prefix);
    await r.quit();
    await erp?.close();
    await billing?.close();
  });

  it('given a backfill of the whole history (invoices, credit notes, customers), then billing equals the expected mapping of the source, record for record, and a second run upserts nothing', async () => {
    const conn = erp.connectionId;
    const to = addDays(utcDate(Date.now()), 2);
    const report = await runBackfill(rt, { connectionId: conn, entities: ['customers', 'invoices', 'credit-notes'], from: '2000-01-01', to }, { quiet: true });
    // At scale: the invoices billing takes, deleted ones and drafts (a few percent of them) left out.
    expect(erp.sourceInvoices()).toBeGreaterThanOrEqual(INVOICES * 0.85);

    // The expected side: the source as it is now, read whole and mapped.
    const { connector, config: c } = rt.connection(conn);
    const stream = connector.streams.invoices;
    const ctx: ReadContext = {
      connectionId: conn,
      http: rt.vendorClient(conn),
      logger: rt.logger,
      until: new Date(Date.now() + 86_400_000),
      settings: c.settings,
    };
    const mapCtx: MapContext = { connectionId: conn, originSource: c.originSource, baseCurrency: 'INR', lookups: await stream.lookups!(ctx) };
    const expected = new Map<string, BillingBody>();
    let quarantined = 0;
    let deleted = 0;
    for await (const page of stream.read(ctx, stream.initialState(undefined))) {
      for (const r of page.records) {
        if (r.deleted) {
          deleted++;
          continue;
        }
        if (r.draft) continue; // not a receivable: not sent (syncDrafts: false, the default)
        const m = stream.map(r, mapCtx);
        if (m.ok) expected.set(r.id, m.value);
        else quarantined++;
      }
    }
    expect(expected.size + quarantined).toBe(erp.sourceInvoices());

    const mismatches: string[] = [];
    let inBilling = 0;
    for await (const page of rt.billing.iterateInvoicePages({
      originSource: [c.originSource],
      lifecycleStatuses: ['DRAFT', 'FINALIZED', 'VOIDED'],
      pageSize: 500,
    })) {
      for (const d of page.docs) {
        inBilling++;
        const body = expected.get(d.erpId!);
        if (!body) mismatches.push(`${d.erpId}: in billing, not expected`);
        else {
          const diffs = compareFields(reconcileFields(body)!, d);
          if (diffs.length) mismatches.push(`${d.erpId}: ${diffs.join('; ')}`);
        }
      }
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
    expect(inBilling).toBe(expected.size);
    // Nothing refused by billing: credit notes wait for their invoices instead of racing them; only
    // a credit note applied to an invoice that never reaches billing (deleted in the source) is
    // quarantined, as DEPENDENCY_MISSING.
    for (const q of await rt.quarantine.list(conn)) {
      const ok = q.stage === 'map' || (q.entity === 'credit-notes' && q.reason === 'DEPENDENCY_MISSING' && / will not reach billing /.test(q.message));
      expect(ok, `${q.entity}/${q.erpId}: ${q.reason} ${q.message}`).toBe(true);
    }
    expect(deleted).toBeGreaterThanOrEqual(0);

    const before = await upsertPosts();
    const again = await runBackfill(rt, { connectionId: conn, entities: ['invoices', 'credit-notes'], from: '2000-01-01', to }, { restart: true, quiet: true });
    expect(again.enqueued).toBe(0);
    expect(await upsertPosts()).toBe(before);
  }, 400_000);
});
