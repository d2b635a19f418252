import { dateOfDay } from '../../src/pipeline/ledger-date-index.js';
import { runCountInvariant, type NarrowedWindow } from './count-invariant.js';
import { DriftReport, FIXABLE } from './drift.js';
import type { HistoryHelpers } from './invoice-date-window.js';
import { recordReconcileRun, repairDrift, sweepInto } from './run-reconcile.js';
import type { ReconcileHelpers, ReconcileResult } from './types.js';
import { readInvoicesById, readSourceWindow } from './source-window.js';

export interface HistoryReconcileRequest {
  connectionId: string;
  /** Also read the source, for the windows where billing and the ledger disagree only. */
  deep?: boolean;
  repair?: boolean;
}

export interface HistoryReconcileResult extends Omit<ReconcileResult, 'from' | 'to'> {
  history: true;
  /** The invoice dates counted: the earliest and latest either side holds (null when neither holds a dated invoice). */
  from: string | null;
  to: string | null;
  windows: {
    /** Windows of invoice dates whose counts were compared (the whole span, then the halves looked at). */
    compared: number;
    /** The smallest windows where the counts differed: each was compared id by id. */
    disagreeing: NarrowedWindow[];
  };
  /** Billing listing calls the run made (counts and the disagreeing windows' pages). */
  billingCalls: number;
  /** Requests made to the source's vendor (deep only; none when every window agrees). */
  vendorCalls: number;
}

export type HistoryReconcileHelpers = ReconcileHelpers & { history: HistoryHelpers };

const ENTITY = 'invoices';

/**
 * A reconciliation of a connection's whole history, on demand (month-end, an audit): the count invariant
 * the scheduled reconcile runs (jobs/reconcile/count-invariant.ts) over every invoice date either side
 * holds, halving where billing's count and the ledger's differ, then comparing id by id inside each
 * disagreeing window. It finds what a reconcile of UPDATED_AT days cannot: an invoice deleted in billing
 * days after it was synced. Drift is reported with the kinds of a windowed run; `repair` works as there
 * (repair by id); `deep` reads the source for the disagreeing windows only. What counts cannot see: a
 * missing record and an extra one in the same window cancel out, and undated records are in no window.
 */
export async function reconcileHistory(
  rt: HistoryReconcileHelpers,
  req: HistoryReconcileRequest,
  signal?: AbortSignal,
): Promise<HistoryReconcileResult> {
  const started = Date.now();
  const handle = rt.connection(req.connectionId);
  const conn = handle.config.id;
  if (req.deep) readInvoicesById(handle);
  const at = new Date().toISOString();
  const fixable = new Set<string>();
  const report = new DriftReport(10_000, (i) => {
    if (FIXABLE.has(i.kind) && i.kind !== 'lost_in_flight' && i.erpId) fixable.add(i.erpId);
  });
  let vendorCalls = 0;
  const source = {
    logger: rt.logger,
    connection: rt.connection,
    ledger: rt.ledger,
    ledgerDates: rt.history.ledgerDates,
    review: rt.review,
  };
  const readSource = async (w: { from: number; to: number }) => {
    const read = await readSourceWindow(source, conn, w, report, signal);
    report.checked.source += read.checked;
    vendorCalls += read.vendorCalls;
  };
  const invariant = await runCountInvariant(rt.history, conn, report, {
    signal,
    only: conn,
    beforeDiff: req.deep ? readSource : undefined,
  });
  report.checked.billing = invariant.billing;
  report.checked.ledger = invariant.ledger;
  const inFlight = await sweepInto(rt, conn, report);

  let repaired: ReconcileResult['repaired'];
  if (req.repair && fixable.size) {
    const ids = [...fixable];
    const entries = await rt.ledger.getMany(conn, ENTITY, ids);
    const records = ids.flatMap((erpId, i) => (entries[i] ? [{ erpId, version: entries[i].version }] : []));
    if (records.length) repaired = await repairDrift(rt, conn, records, signal);
  }
  const from = invariant.span ? dateOfDay(invariant.span.from) : null;
  const to = invariant.span ? dateOfDay(invariant.span.to) : null;
  if (from && to) await recordReconcileRun(rt, conn, { at, from, to, counts: report.counts });

  return {
    connection: conn,
    history: true,
    from,
    to,
    deep: Boolean(req.deep),
    ...report.summary(),
    inFlight,
    repaired,
    windows: { compared: invariant.compared, disagreeing: invariant.narrowed },
    billingCalls: invariant.calls,
    vendorCalls,
    seconds: (Date.now() - started) / 1000,
  };
}
