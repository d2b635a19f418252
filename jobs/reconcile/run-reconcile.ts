import { randomUUID } from 'node:crypto';
import { billingPass } from './billing-pass.js';
import { DRIFT_KINDS, type DriftReport, type DriftKind } from './drift.js';
import { ledgerPass } from './ledger-pass.js';
import { type ReconcilePass, startReconcilePass } from './reconcile-pass.js';
import { readSourceSide } from './source-side.js';
import { repairById } from './repair-by-id.js';
import type { ReconcileHelpers, ReconcileRequest, ReconcileResult } from './types.js';

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
  const pass = startReconcilePass(rt, req, signal);
  const { conn, report } = pass;
  try {
    // 1. Source side (deep), first: it records source deletes in the ledger, which the next passes judge.
    if (req.deep) await sourcePass(pass);
    // 2. Billing side: every page of the window, the ids seen kept for …
    await billingPass(pass);
    // 3. … the ledger side: what we wrote (or saw deleted) on these days but billing's window did not show.
    await ledgerPass(pass);
  } finally {
    await pass.seen.drop();
  }
  // 4. Records on their way: any whose job is gone, or failed unaccounted, is acted on and reported.
  const inFlight = await sweepInto(rt, conn, report);
  let repaired: ReconcileResult['repaired'];
  if (req.repair && pass.toRepair.length) repaired = await repairDrift(rt, conn, pass.toRepair, signal);
  await recordReconcileRun(rt, conn, { at: pass.at, from: req.from, to: req.to, counts: report.counts });
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

/** Deep mode: the source's changes of the window against the ledger (source-side.ts), the fixable ones kept for a repair. */
async function sourcePass(pass: ReconcilePass): Promise<void> {
  const source = await readSourceSide(pass.rt, pass.conn, { from: pass.req.from, to: pass.req.to }, pass.signal);
  pass.report.checked.source = source.checked;
  for (const s of source.items) {
    pass.report.add(s);
    if (s.erpId) pass.verdict(s.erpId, s.kind, s.detail);
    if (s.kind === 'stale_version' || s.kind === 'missing_in_billing' || s.kind === 'ledger_ahead_of_source')
      pass.toRepair.push({ erpId: s.erpId!, version: s.version });
  }
  await pass.flushVerdicts();
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
