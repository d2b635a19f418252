import { randomUUID } from 'node:crypto';
import type { ConnectionSlotsPolicy } from '../define-job.js';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { InvoiceRecord } from '../../src/billing/schemas/index.js';
import { updatedBetween } from '../../src/billing/dates.js';
import type { AppConfig } from '../../src/config.js';
import { invoiceIdFor } from '../../src/mapping/index.js';
import type { Metrics } from '../../src/observability/metrics.js';
import type { Checkpoints } from '../../src/pipeline/checkpoints.js';
import type { LeaseKeeper } from '../../src/pipeline/lease-keeper.js';
import type { Ledger, LedgerEntry } from '../../src/pipeline/ledger.js';
import type { Quarantine } from '../../src/pipeline/quarantine.js';
import type { ReconcileState, ReconcileVerdict } from '../../src/pipeline/reconcile-state.js';
import type { ConnectionHandle } from '../runtime.js';
import type { SweepResult } from '../sweep.js';
import { compareRecord } from './compare-record.js';
import { deletedInBillingOnly } from './deleted-in-billing.js';
import { DRIFT_KINDS, DriftReport, type DriftKind } from './drift.js';
import { readSourceSide } from './source-side.js';
import type { ConnectionGate } from '../connection-gate.js';
import { repairById, type RepairByIdHelpers, type RepairOutcome } from './repair-by-id.js';

/** What a reconciliation uses, and nothing else (the reconcile job's helpers; the CLI passes its runtime). */
export interface ReconcileHelpers {
  logger: Logger;
  metrics: Metrics;
  config: { reconcile: Pick<AppConfig['reconcile'], 'timeZone'>; sync?: Pick<AppConfig['sync'], 'quotaWaitInPlaceMs'> };
  /** The worker's reconcile job: at most sync.maxJobsPerConnection jobs of one connection at once. */
  jobSlots?: ConnectionSlotsPolicy;
  /** The process's lease keeper: renews the job's connection slot and the locks it takes. */
  leases?: LeaseKeeper;
  /** Holds back the jobs of a paused connection (jobs/connection-gate.ts). */
  connectionGate?: ConnectionGate;
  /** The connection, with the billing company it writes to: its client (its keys) and the budget its listing calls take slots from. */
  connection(id: string): ConnectionHandle;
  ledger: Pick<Ledger, 'getMany' | 'scan' | 'markSourceDeleted' | 'requestRepair'>;
  checkpoints: Pick<Checkpoints, 'rewindCheckpoint'>;
  quarantine: Pick<Quarantine, 'get' | 'put'>;
  reconcileState: Pick<ReconcileState, 'recordVerdicts' | 'recordRun' | 'scratchSet'>;
  queues: { pull: Pick<Queue, 'add'>; upsert: Pick<Queue, 'addBulk'> };
  /** What a repair by id enqueues through (repair-by-id.ts). */
  inFlight: RepairByIdHelpers['inFlight'];
  backfillRuns: RepairByIdHelpers['backfillRuns'];
  recordHistory?: RepairByIdHelpers['recordHistory'];
  /**
   * The in-flight sweep of the connection (jobs/sweep.ts): a reconcile checks the records still on their
   * way to billing, not only billing's window. The worker's reconcile job and the CLI pass it.
   */
  sweep?: (connection: string) => Promise<SweepResult>;
}

export interface ReconcileRequest {
  connectionId: string;
  /** Inclusive days, in the configured time zone (reconcile.timeZone, UTC by default). */
  from: string;
  to: string;
  deep?: boolean;
  repair?: boolean;
}

export interface ReconcileResult {
  connection: string;
  from: string;
  to: string;
  deep: boolean;
  counts: Record<DriftKind, number>;
  total: number;
  needsPerson: number;
  checked: { billing: number; ledger: number; source: number };
  items: DriftReport['items'];
  truncated: number;
  /** Records still on their way to billing when the run ended (the in-flight index), when it was checked. */
  inFlight?: number;
  /**
   * What a repair enqueued: the run id its upserts are tracked under, and the pull jobs (none for a repair
   * by id). A repair by id also says what it did per record and how many vendor calls it made.
   */
  repaired?: {
    requeued: number;
    pulls: string[];
    runId: string;
    pullJobIds: string[];
    by?: 'id' | 'rewind';
    records?: RepairOutcome[];
    vendorCalls?: number;
  };
  seconds: number;
}

const PAGE = 500;

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * YYYY-MM-DD of an instant in a time zone. One formatter per zone, kept: each Intl.DateTimeFormat holds
 * native ICU memory that V8 does not count, so building one per ledger entry let RSS follow the window
 * (3 GiB at 200,000 invoices) while the JS heap stayed small and was rarely collected.
 */
export function dateInZone(ms: number, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(ms);
}

/**
 * Billing ⟷ ledger (⟷ source in deep mode) for one connection and a window of UPDATED_AT days.
 * Memory is bounded by the page size: the billing side is walked page by page and the set of ERP ids
 * seen lives in Redis; the ledger is scanned in batches.
 *
 * Counting each record exactly once across adjacent windows: a record present in billing is counted in
 * the window of its billing `updatedAt` date; a record absent from billing is counted in the window of
 * the ledger's `writtenAt` date (both in the configured time zone).
 */
export async function runReconcile(
  rt: ReconcileHelpers,
  req: ReconcileRequest,
  signal?: AbortSignal,
): Promise<ReconcileResult> {
  const started = Date.now();
  // Billing's side is the connection's own billing company: listed with its key, paced by its budget.
  const { config: c, billing: target } = rt.connection(req.connectionId);
  const billing = target.client;
  const budget = target.budget;
  const conn = c.id;
  const tz = rt.config.reconcile.timeZone;
  const report = new DriftReport();
  // The billing ids this run saw, in Redis (a window may hold hundreds of thousands).
  const seen = rt.reconcileState.scratchSet(conn, `${randomUUID()}:seen`);
  const verdicts: Array<[string, ReconcileVerdict]> = [];
  const at = new Date().toISOString();
  const verdict = (erpId: string, v: string, detail?: string) =>
    verdicts.push([erpId, { at, window: `${req.from}..${req.to}`, verdict: v, detail }]);
  const flushVerdicts = () => rt.reconcileState.recordVerdicts(conn, 'invoices', verdicts.splice(0));
  const toRepair: Array<{ erpId: string; version: string }> = [];
  const inWindow = (ms: number) => {
    const day = dateInZone(ms, tz);
    return day >= req.from && day <= req.to;
  };

  try {
    // 1. Source side (deep), first: it records source deletes in the ledger, which the next passes judge.
    if (req.deep) {
      const source = await readSourceSide(rt, conn, { from: req.from, to: req.to }, signal);
      report.checked.source = source.checked;
      for (const s of source.items) {
        report.add(s);
        if (s.erpId) verdict(s.erpId, s.kind, s.detail);
        if (s.kind === 'stale_version' || s.kind === 'missing_in_billing')
          toRepair.push({ erpId: s.erpId!, version: s.version });
      }
      await flushVerdicts();
    }
    // 2. Billing side: every page of the UPDATED_AT window for this connection's origin source.
    let pageNumber = 1;
    for (;;) {
      await budget.take(signal);
      const page = await billing.listInvoices(
        { ...updatedBetween(req.from, req.to), originSource: [c.originSource], pageSize: PAGE, pageNumber },
        { signal },
      );
      const withErp = page.docs.filter((d) => d.erpId);
      const ledger = await rt.ledger.getMany(
        conn,
        'invoices',
        withErp.map((d) => d.erpId!),
      );
      const entryOf = new Map(withErp.map((d, i) => [d, ledger[i]]));
      const mine: string[] = [];
      for (const d of page.docs) {
        report.checked.billing++;
        if (!d.erpId) {
          report.add({
            kind: 'orphan_in_billing',
            invoiceId: d.invoiceId,
            invoiceNumber: d.invoiceNumber,
            detail: 'no erpId: not written by this connection',
          });
          continue;
        }
        const entry = entryOf.get(d);
        const kind = classifyBilling(d, entry, conn);
        const items =
          kind === 'ours'
            ? compareRecord(
                d,
                entry!,
                entry!.sourceDeletedAt !== undefined && inWindow(Date.parse(entry!.sourceDeletedAt)),
              )
            : [kind];
        for (const item of items) {
          report.add({ ...item, erpId: d.erpId, invoiceId: d.invoiceId, invoiceNumber: d.invoiceNumber });
          if (item.kind === 'field_mismatch' || item.kind === 'stale_version')
            toRepair.push({ erpId: d.erpId, version: entry!.version });
        }
        if (kind === 'ours') {
          mine.push(d.erpId);
          verdict(
            d.erpId,
            items.length ? items.map((i) => i.kind).join(',') : 'ok',
            items.map((i) => i.detail).join('; ') || undefined,
          );
        }
      }
      await seen.add(mine);
      await flushVerdicts();
      if (!page.hasNext || page.nextPageNumber === null) break;
      pageNumber = page.nextPageNumber;
    }
    await seen.expireIn(3_600_000);

    // 3. Ledger side: what we wrote (or saw deleted) on these days but billing's window did not show.
    for await (const batch of rt.ledger.scan(conn, 'invoices', 1000)) {
      const candidates = batch.filter(
        ([, e]) =>
          inWindow(e.writtenAt) || (e.sourceDeletedAt !== undefined && inWindow(Date.parse(e.sourceDeletedAt))),
      );
      report.checked.ledger += candidates.length;
      if (!candidates.length) continue;
      const seenInBilling = await seen.has(candidates.map(([id]) => id));
      const unseen = candidates.filter((_, i) => !seenInBilling[i]);
      for (let i = 0; i < unseen.length; i += 100) {
        const chunk = unseen.slice(i, i + 100);
        await budget.take(signal);
        const found = await billing.listInvoices(
          {
            invoiceIds: chunk.map(([, e]) => e.billingId),
            lifecycleStatuses: ['DRAFT', 'FINALIZED', 'VOIDED'],
            pageSize: 100,
          },
          { signal },
        );
        const present = new Set(found.docs.map((d) => d.invoiceId));
        for (const [erpId, e] of chunk) {
          if (present.has(e.billingId)) {
            // Billing still holds an invoice the source deleted (its billing updatedAt is outside the window):
            // counted in the window of the delete.
            if (e.sourceDeletedAt && inWindow(Date.parse(e.sourceDeletedAt))) {
              report.add({
                kind: 'delete_not_reflected',
                erpId,
                invoiceId: e.billingId,
                invoiceNumber: e.number,
                detail: `deleted in the source at ${e.sourceDeletedAt}; billing still lists it`,
              });
              verdict(erpId, 'delete_not_reflected');
            }
            continue; // otherwise updated since, outside this window: counted there
          }
          if (e.sourceDeletedAt) {
            verdict(erpId, 'ok', 'deleted in source and absent from billing');
            continue;
          }
          // A record billing refused to take back (409: deleted in billing) needs a person, not a repair.
          const refused = await rt.quarantine.get(conn, 'invoices', erpId);
          if (refused?.reason === 'BILLING_CONFLICT') {
            const deleted = deletedInBillingOnly(erpId, e, refused.message);
            if (deleted) report.add(deleted);
            verdict(
              erpId,
              deleted ? deleted.kind : 'ok',
              deleted ? deleted.detail : 'deleted in billing; void in the source',
            );
            continue;
          }
          report.add({
            kind: 'missing_in_billing',
            erpId,
            invoiceId: e.billingId,
            invoiceNumber: e.number,
            detail: `written ${new Date(e.writtenAt).toISOString()}, not in billing`,
          });
          verdict(erpId, 'missing_in_billing');
          toRepair.push({ erpId, version: e.version });
        }
      }
      await flushVerdicts();
    }
  } finally {
    await seen.drop();
  }

  // 4. Records on their way: any whose job is gone, or failed unaccounted, is acted on and reported.
  const inFlight = await sweepInto(rt, conn, report);

  let repaired: ReconcileResult['repaired'];
  if (req.repair && toRepair.length) repaired = await repairDrift(rt, conn, toRepair, signal);
  await recordReconcileRun(rt, conn, { at, from: req.from, to: req.to, counts: report.counts });

  return {
    connection: conn,
    from: req.from,
    to: req.to,
    deep: Boolean(req.deep),
    ...report.summary(),
    inFlight,
    repaired,
    seconds: (Date.now() - started) / 1000,
  };
}

/**
 * The in-flight sweep of a reconcile (when its caller passes one): records whose upsert job is gone, or
 * failed unaccounted, are acted on and reported as `lost_in_flight`. Returns the records still on their way.
 */
export async function sweepInto(
  rt: Pick<ReconcileHelpers, 'sweep'>,
  conn: string,
  report: DriftReport,
): Promise<number | undefined> {
  if (!rt.sweep) return undefined;
  const swept = await rt.sweep(conn);
  for (const r of swept.recovered) {
    report.add({
      kind: 'lost_in_flight',
      erpId: r.erpId,
      detail: `${r.entity} ${r.erpId} version ${r.version}: ${r.detail}; ${r.action === 're-enqueued' ? 'enqueued again' : 'quarantined (erp-sync dlq)'}`,
      needsPerson: r.action === 'quarantined',
    });
  }
  return swept.inFlight - swept.settled;
}

/** A reconcile's finding as the last run of the connection: the drift gauges, the last-run time, the reconcile state. */
export async function recordReconcileRun(
  rt: Pick<ReconcileHelpers, 'metrics' | 'reconcileState'>,
  conn: string,
  run: { at: string; from: string; to: string; counts: Record<DriftKind, number> },
): Promise<void> {
  for (const k of DRIFT_KINDS) rt.metrics.reconcileDrift.set({ connection: conn, kind: k }, run.counts[k]);
  rt.metrics.reconcileLastRun.set({ connection: conn }, Date.now() / 1000);
  await rt.reconcileState.recordRun(conn, run);
}

type Classified = 'ours' | { kind: DriftKind; detail: string };

function classifyBilling(d: InvoiceRecord, entry: LedgerEntry | undefined, conn: string): Classified {
  if (!entry) {
    const ours = d.invoiceId === invoiceIdFor(conn, d.erpId!);
    return {
      kind: 'orphan_in_billing',
      detail: ours ? 'id of this connection, but never written by it (ledger has no entry)' : 'unknown to the ledger',
    };
  }
  if (d.invoiceId !== entry.billingId) {
    return {
      kind: 'duplicate',
      detail: `a second billing invoice for ERP record ${d.erpId} (ours is ${entry.billingId})`,
    };
  }
  return 'ours';
}

/** What `--repair` does with the fixable records a reconcile found: a repair by id, or a rewind where the stream cannot read by id. */
export async function repairDrift(
  rt: ReconcileHelpers,
  conn: string,
  records: Array<{ erpId: string; version: string }>,
  signal?: AbortSignal,
): Promise<NonNullable<ReconcileResult['repaired']>> {
  return (await repairByIdOf(rt, conn, records, signal)) ?? (await repair(rt, conn, records));
}

/** A repair by id (repair-by-id.ts), in the result's shape; undefined when the stream cannot read by id. */
async function repairByIdOf(
  rt: ReconcileHelpers,
  conn: string,
  records: Array<{ erpId: string }>,
  signal?: AbortSignal,
) {
  const r = await repairById(
    rt,
    conn,
    'invoices',
    records.map((x) => x.erpId),
    signal,
  );
  if (!r) return undefined;
  const requeued = r.records.filter((o) => o.action === 're-enqueued').length;
  return {
    requeued,
    pulls: [],
    runId: r.runId,
    pullJobIds: [],
    by: 'id' as const,
    records: r.records,
    vendorCalls: r.vendorCalls,
  };
}

/**
 * Repair what a sync can fix, for a stream that cannot read by id: request a repair of those records in the ledger (their content hash is
 * forgotten, so the next pull re-enqueues them even if the source did not change), rewind the stream's
 * checkpoint to just before the oldest affected version, and pull now. Both are atomic on the state as
 * it is then: an upsert or a pull committing meanwhile is neither overwritten nor able to undo the
 * repair. Billing-side deletes come back as 409 and are quarantined (BILLING_CONFLICT) for a person.
 */
async function repair(rt: ReconcileHelpers, conn: string, records: Array<{ erpId: string; version: string }>) {
  let oldest = records[0]!.version;
  for (const r of records) if (r.version < oldest) oldest = r.version;
  await rt.ledger.requestRepair(
    conn,
    'invoices',
    records.map((r) => r.erpId),
  );
  await rt.checkpoints.rewindCheckpoint(conn, 'invoices', new Date(Date.parse(oldest) - 1000).toISOString());
  // Its own pull, under its own run id: the pull tracks the upserts it enqueues under that id, so the
  // caller waits for exactly this repair's work (never for the scheduled pulls, which never drain).
  // It waits for a pull of the stream already running instead of returning at once.
  const runId = `repair-${randomUUID()}`;
  const jobId = `${runId}-invoices`;
  await rt.queues.pull.add(
    'pull',
    { connectionId: conn, entity: 'invoices', runId, waitForRunning: true },
    { priority: 1, jobId },
  );
  return { requeued: records.length, pulls: ['invoices'], runId, pullJobIds: [jobId], by: 'rewind' as const };
}
