import { randomBytes } from 'node:crypto';
import type { DemoErp } from '../cli/demo/sandbox-erps.js';
import { validateSettings } from '../connectors/registry.js';
import { compareFields } from '../jobs/reconcile/compare-fields.js';
import { reconcileFields } from '../jobs/pull/reconcile-fields.js';
import { createRuntime } from '../app/create-runtime.js';
import type { Runtime } from '../jobs/runtime.js';
import { startWorkers } from '../app/worker-service.js';
import { startBillingEmulator, type BillingEmulator } from '../sandbox/billing/billing-emulator.js';
import type { BillingBody, MapContext, ReadContext } from '../src/connector/types.js';
import { parseConfig } from '../src/config.js';
import { createLogger } from '../src/observability/logger.js';
import { deleteKeysWithPrefix, stateConnection } from '../src/redis.js';

/**
 * An ERP sandbox with a generated history, the billing emulator, and a worker (pull, upsert, backfill) on
 * Redis between them: what a whole-history backfill runs on, at any size. The at-scale end-to-end test
 * runs it small; `npm run bench:at-scale` runs it at 5,000 invoices per vendor.
 */
export interface BackfillRig {
  billing: BillingEmulator;
  erp: DemoErp;
  rt: Runtime;
  /** Upserts billing answered 200 so far (its journal). */
  upsertPosts(): Promise<number>;
  close(): Promise<void>;
}

export async function startBackfillRig(o: {
  start: (records: number, seed: number) => Promise<DemoErp>;
  records: number;
  redisUrl: string;
  /** Records per vendor list page (the connector setting); small pages make a small history cross many pages. */
  pageSize?: number;
}): Promise<BackfillRig> {
  const prefix = `at-scale-${randomBytes(3).toString('hex')}`;
  const billing = await startBillingEmulator({ port: 0, keys: [{ key: 'k', companyId: 'c' }] });
  const erp = await o.start(o.records, 23);
  const connection = erp.connection() as { settings: Record<string, unknown> };
  const config = parseConfig(
    {
      billing: { url: billing.url, apiKey: 'k', rateLimit: { max: 5000 } },
      redis: { url: o.redisUrl, prefix },
      sync: { upsertConcurrency: 32, backlogHighWater: 5000, backoffMs: 50, dependencyWaitSeconds: 60 },
      connections: [
        { ...connection, settings: { ...connection.settings, ...(o.pageSize ? { pageSize: o.pageSize } : {}) } },
      ],
    },
    {},
    validateSettings,
  );
  const rt = await createRuntime(config, o.redisUrl, createLogger({ level: 'silent', format: 'json' }));
  const workers = startWorkers(rt, ['pull', 'upsert', 'backfill']);
  return {
    billing,
    erp,
    rt,
    upsertPosts: async () => {
      const res = (await (await fetch(`${billing.url}/__admin/journal?path=/external/invoice/upsert`)).json()) as {
        entries: Array<{ status: number }>;
      };
      return res.entries.filter((e) => e.status === 200).length;
    },
    close: async () => {
      await workers.stop(5_000);
      await rt.close();
      const r = stateConnection(o.redisUrl);
      await deleteKeysWithPrefix(r, prefix);
      await r.quit();
      await erp.close();
      await billing.close();
    },
  };
}

/** The source side by side with billing, after a backfill. */
export interface SourceAndBilling {
  /** The source's invoices as the connector maps them now (deleted ones and drafts left out), by ERP id. */
  expected: Map<string, BillingBody>;
  /** Source invoices whose mapping fails (quarantined at the map stage). */
  quarantined: number;
  /** Invoices billing holds for the connection's origin source. */
  inBilling: number;
  /** One line per difference: in billing and not expected, in billing twice, or a field that differs. */
  mismatches: string[];
  /**
   * Quarantined records billing refused or that waited in vain, one line each. None is expected: credit
   * notes wait for their invoices instead of racing them; only a credit note applied to an invoice that
   * never reaches billing (deleted in the source) is quarantined, as DEPENDENCY_MISSING.
   */
  refused: string[];
}

/** Reads the connection's source whole and maps it, then walks billing's listing of its origin source. */
export async function compareWithSource(rt: Runtime, connectionId: string): Promise<SourceAndBilling> {
  const { connector, config: c } = rt.connection(connectionId);
  const stream = connector.streams.invoices;
  const ctx: ReadContext = {
    connectionId,
    http: rt.vendorClient(connectionId),
    logger: rt.logger,
    until: new Date(Date.now() + 86_400_000),
    settings: c.settings,
  };
  const mapCtx: MapContext = {
    connectionId,
    originSource: c.originSource,
    baseCurrency: 'INR',
    lookups: await stream.lookups!(ctx),
  };
  const expected = new Map<string, BillingBody>();
  let quarantined = 0;
  for await (const page of stream.read(ctx, stream.initialState(undefined))) {
    for (const r of page.records) {
      if (r.deleted || r.draft) continue; // not a receivable: not sent (syncDrafts: false, the default)
      const m = stream.map(r, mapCtx);
      if (m.ok) expected.set(r.id, m.value);
      else quarantined++;
    }
  }
  const mismatches: string[] = [];
  const seen = new Set<string>();
  let inBilling = 0;
  for await (const page of rt.billing.iterateInvoicePages({
    originSource: [c.originSource],
    lifecycleStatuses: ['DRAFT', 'FINALIZED', 'VOIDED'],
    pageSize: 500,
  })) {
    for (const d of page.docs) {
      inBilling++;
      const body = expected.get(d.erpId!);
      if (seen.has(d.erpId!)) mismatches.push(`${d.erpId}: in billing twice`);
      seen.add(d.erpId!);
      if (!body) mismatches.push(`${d.erpId}: in billing, not expected`);
      else {
        const diffs = compareFields(reconcileFields(body)!, d);
        if (diffs.length) mismatches.push(`${d.erpId}: ${diffs.join('; ')}`);
      }
    }
  }
  const refused = (await rt.quarantine.list(connectionId))
    .filter(
      (q) =>
        q.stage !== 'map' &&
        !(
          q.entity === 'credit-notes' &&
          q.reason === 'DEPENDENCY_MISSING' &&
          / will not reach billing /.test(q.message)
        ),
    )
    .map((q) => `${q.entity}/${q.erpId}: ${q.reason} ${q.message}`);
  return { expected, quarantined, inBilling, mismatches, refused };
}
