import { randomBytes } from 'node:crypto';
import { validateSettings } from '../../connectors/registry.js';
import { ENTITY_NAMES } from '../../src/connector/entities.js';
import { runReconcile } from '../../jobs/reconcile/run-reconcile.js';
import type { ReconcileResult } from '../../jobs/reconcile/types.js';
import { createRuntime } from '../../app/create-runtime.js';
import type { Runtime } from '../../jobs/runtime.js';
import { startWorkers } from '../../app/worker-service.js';
import { parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { deleteKeysWithPrefix, resolveRedis, stateConnection } from '../../src/redis.js';
import { startBillingEmulator } from '../../sandbox/billing/billing-emulator.js';
import { utcDate } from '../../src/billing/dates.js';
import { runBackfill } from '../commands/backfill.js';
import { waitForDrain } from '../drain.js';
import { indiaSamples } from './india-samples.js';
import type { DemoErp } from './sandbox-erps.js';

export interface DemoCounts {
  connection: string;
  system: string;
  source: number;
  billing: number;
  quarantined: number;
  drift: number;
  driftBeforeFix: Record<string, number>;
}

export interface DemoSummary {
  ok: boolean;
  connections: DemoCounts[];
  totals: { source: number; billing: number; quarantined: number; drift: number };
  seconds: number;
}

const KEY = 'demo-key';
/** The billing company of every connection whose sandbox names none of its own. */
const DEFAULT_COMPANY = 'demo';
const keyOf = (company: string) => (company === DEFAULT_COMPANY ? KEY : `${KEY}-${company}`);

/**
 * The whole pipeline, offline: billing and ERP sandboxes, a backfill, a batch of source changes, an
 * incremental sync, a deep reconciliation. Voids and deletes cannot be expressed through the billing
 * interface: reconciliation reports them for a person, the demo plays that person through the billing
 * sandbox's admin endpoints, and reconciles again. Exit 0 only if billing then matches the source
 * (every source invoice is in billing or quarantined with a reason, and no drift remains).
 */
export async function runPipelineDemo(
  erps: Array<() => Promise<DemoErp>>,
  log: (line: string) => void,
): Promise<DemoSummary> {
  const started = Date.now();
  const redis = await resolveRedis();
  log(`redis: ${redis.source} (${redis.url.replace(/\/\/[^@]*@/, '//')})`);
  const sandboxes: DemoErp[] = [];
  let billing: Awaited<ReturnType<typeof startBillingEmulator>> | undefined;
  let rt: Runtime | undefined;
  const prefix = `erp-sync-demo-${randomBytes(3).toString('hex')}`;
  try {
    for (const start of erps) sandboxes.push(await start());
    const companies = [DEFAULT_COMPANY, ...new Set(sandboxes.flatMap((s) => s.billingCompany ?? []))];
    billing = await startBillingEmulator({
      port: 0,
      keys: companies.map((companyId) => ({ key: keyOf(companyId), companyId })),
      attachmentKeys: companies.map((companyId) => ({ key: `${keyOf(companyId)}-attach`, companyId })),
    });
    log(`billing sandbox ${billing.url}; ERP sandboxes: ${sandboxes.map((s) => `${s.system} ${s.url}`).join(', ')}`);
    const config = demoConfig(billing.url, redis.url, prefix, sandboxes);
    const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'warn', format: 'json' });
    rt = await createRuntime(config, redis.url, logger);
    const workers = startWorkers(rt, ['pull', 'upsert', 'backfill']);
    const counts: DemoCounts[] = [];
    try {
      for (const s of sandboxes) counts.push(await demoConnection(rt, s, billing.url, log));
    } finally {
      await workers.stop(5_000);
    }
    const totals = counts.reduce(
      (t, c) => ({
        source: t.source + c.source,
        billing: t.billing + c.billing,
        quarantined: t.quarantined + c.quarantined,
        drift: t.drift + c.drift,
      }),
      { source: 0, billing: 0, quarantined: 0, drift: 0 },
    );
    const ok = counts.every((c) => c.source === c.billing + c.quarantined && c.drift === 0);
    return { ok, connections: counts, totals, seconds: (Date.now() - started) / 1000 };
  } finally {
    if (rt) {
      await rt.close();
      const r = stateConnection(redis.url);
      await deleteKeysWithPrefix(r, prefix);
      await r.quit();
    }
    await Promise.all(sandboxes.map((s) => s.close()));
    await billing?.close();
    await redis.stop();
  }
}

/** The demo's config: the sandboxes, a fresh key prefix, and room for the whole backlog at once. */
function demoConfig(billingUrl: string, redisUrl: string, prefix: string, sandboxes: DemoErp[]) {
  return parseConfig(
    {
      billing: {
        url: billingUrl,
        apiKey: KEY,
        attachmentKey: `${KEY}-attach`,
        baseCurrency: 'INR',
        rateLimit: { max: 2000, durationMs: 1000 },
      },
      redis: { url: redisUrl, prefix },
      sync: { upsertConcurrency: 32, backlogHighWater: 5000 },
      connections: sandboxes.map((s) => ({ ...s.connection(), ...ownBilling(s) })),
    },
    {},
    validateSettings,
    'demo config',
  );
}

/** A connection's own billing company (its keys), when its sandbox names one. */
function ownBilling(s: DemoErp): Record<string, unknown> {
  const company = s.billingCompany;
  if (!company) return {};
  return {
    billing: { apiKey: keyOf(company), attachmentKey: `${keyOf(company)}-attach`, baseCurrency: 'INR', company },
  };
}

/**
 * One sandbox ERP through the pipeline: a backfill, its source changes and an incremental sync, a deep
 * reconciliation, the finance person's fixes in billing, and a reconciliation again; then the counts.
 */
async function demoConnection(
  rt: Runtime,
  s: DemoErp,
  billingUrl: string,
  log: (line: string) => void,
): Promise<DemoCounts> {
  const company = s.billingCompany ?? DEFAULT_COMPANY;
  log(
    `\n▶ ${s.connectionId} (${s.system} → ${s.originSource}${s.billingCompany ? `, billing company ${company}` : ''})`,
  );
  const bf = await runBackfill(
    rt,
    { connectionId: s.connectionId, entities: [...ENTITY_NAMES], from: s.from, to: s.to },
    { quiet: true },
  );
  log(
    `  backfill ${s.from}..${s.to}: pulled ${bf.pulled}, enqueued ${bf.enqueued}, quarantined ${bf.quarantined} (${bf.seconds.toFixed(1)} s)`,
  );
  if (s.system === 'zoho-books' || s.system === 'tally')
    for (const line of await indiaSamples(rt.billingFor(s.connectionId), s.originSource)) log(line);
  const changes = await s.mutate();
  log(`  source changes: ${changes.join(', ')}`);
  log(`  incremental sync: ${await incrementalSync(rt, s.connectionId)}`);
  const today = utcDate(Date.now());
  const first = await runReconcile(rt, { connectionId: s.connectionId, from: today, to: today, deep: true });
  log(`  reconcile (deep, today): ${describe(first)}`);
  if (first.total > 0) {
    const acted = await actAsFinancePerson(billingUrl, company, first);
    log(`  as the finance person in billing: ${acted}`);
  }
  const second = await runReconcile(rt, { connectionId: s.connectionId, from: today, to: today, deep: true });
  log(`  reconcile again: ${describe(second)}`);
  for (const item of second.items.slice(0, 5))
    log(`    ${item.kind} ${item.erpId ?? item.invoiceId ?? ''}: ${item.detail}`);
  const inBilling = (
    await rt.billingFor(s.connectionId).listInvoices({
      originSource: [s.originSource],
      lifecycleStatuses: ['DRAFT', 'FINALIZED', 'VOIDED'],
      pageSize: 1,
    })
  ).totalDocs;
  const quarantined = (await rt.quarantine.list(s.connectionId)).filter((q) => q.entity === 'invoices').length;
  const q = await rt.quarantine.countByReason(s.connectionId);
  if (Object.keys(q).length)
    log(
      `  quarantined (with reasons): ${Object.entries(q)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  return {
    connection: s.connectionId,
    system: s.system,
    source: s.sourceInvoices(),
    billing: inBilling,
    quarantined,
    drift: second.total,
    driftBeforeFix: Object.fromEntries(Object.entries(first.counts).filter(([, v]) => v > 0)),
  };
}

/**
 * A pull of every stream, as the schedulers would run it; for a vendor whose deletes leave no trace
 * (TallyPrime) its deletes sweep too, which the worker runs on `schedule.deletesEverySeconds`.
 */
async function incrementalSync(rt: Runtime, connectionId: string): Promise<string> {
  const sweeps = rt.connection(connectionId).connector.sweepsDeletes === true;
  for (const entity of ENTITY_NAMES) await rt.queues.pull.add('pull', { connectionId, entity }, { priority: 1 });
  await waitForDrain(rt);
  if (!sweeps) return 'done';
  const found = await rt.queues.pull.add('pull', { connectionId, entity: 'invoices', deletes: true }, { priority: 1 });
  await waitForDrain(rt);
  const deleted = ((await rt.queues.pull.getJob(found.id!))?.returnvalue as { deleted?: number } | undefined)?.deleted;
  return `done; deletes sweep (every GUID against the ledger): ${deleted ?? 0} invoice(s) gone from the source`;
}

function describe(r: ReconcileResult): string {
  if (r.total === 0) return `clean (${r.checked.billing} billing, ${r.checked.source} source records checked)`;
  return Object.entries(r.counts)
    .filter(([, v]) => v > 0)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

/** Voids and deletes the worker reported but cannot express: a person does them in billing. */
async function actAsFinancePerson(billingUrl: string, company: string, r: ReconcileResult): Promise<string> {
  let voided = 0;
  let deleted = 0;
  for (const item of r.items) {
    if (!item.invoiceId) continue;
    const action =
      item.kind === 'void_not_reflected' ? 'void' : item.kind === 'delete_not_reflected' ? 'delete' : undefined;
    if (!action) continue;
    const res = await fetch(
      `${billingUrl}/__admin/invoices/${encodeURIComponent(item.invoiceId)}/${action}?company=${encodeURIComponent(company)}`,
      { method: 'POST' },
    );
    if (res.ok) action === 'void' ? voided++ : deleted++;
  }
  return `voided ${voided}, deleted ${deleted} invoice(s) the source had voided or deleted`;
}
