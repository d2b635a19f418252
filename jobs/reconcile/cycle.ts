import type { CycleProgress } from '../../src/pipeline/reconcile-cycle-state.js';
import type { DriftReport } from './drift.js';
import {
  billingGroup,
  diffInvoiceDateWindow,
  type DayWindow,
  type HistoryHelpers,
  ledgerCount,
  windowText,
} from './invoice-date-window.js';

/** A sub-window of a slice holds at most this many ledger records (or is a single day): memory stays bounded. */
const SUB_WINDOW_RECORDS = 5_000;

export interface CycleSliceResult {
  /** Invoice dates reconciled by this run, "from..to"; undefined when the ledger holds no dated invoice. */
  slice?: string;
  /** Runs this cycle has taken so far (this one included), and the most it may take. */
  run: number;
  runsPerCycle: number;
  /** This run finished a pass over the whole history. */
  completed: boolean;
  billing: number;
  ledger: number;
  calls: number;
}

/**
 * The history cycle: each scheduled run reconciles the next slice of the connection's invoice dates,
 * id by id and field by field, so every invoice however old is compared with billing once per
 * `reconcile.cycleDays`. The slice is what is left of the history divided by the runs left in the cycle,
 * counted both ways (by the schedule's runs and by the clock), so the pass ends in time even when the
 * history grows or runs were missed. State per connection in Redis (reconcile-cycle-state.ts).
 */
export async function runCycleSlice(
  rt: HistoryHelpers,
  connectionId: string,
  report: DriftReport,
  signal?: AbortSignal,
): Promise<CycleSliceResult> {
  const { cycleDays, everySeconds } = rt.config.reconcile;
  const runsPerCycle = Math.max(1, Math.floor((cycleDays * 86_400) / everySeconds));
  await rt.ledgerDates.ensure(rt.ledger, connectionId, 'invoices');
  const span = await rt.ledgerDates.span(connectionId, 'invoices');
  const now = Date.now();
  if (!span) return { run: 0, runsPerCycle, completed: false, billing: 0, ledger: 0, calls: 0 };

  const fresh = (lastCompletedAt?: number): CycleProgress => ({
    startedAt: now,
    runs: 0,
    nextDay: span.from,
    lastCompletedAt,
  });
  let p = (await rt.reconcileCycle.get(connectionId)) ?? fresh();
  if (p.nextDay > span.to) p = fresh(p.lastCompletedAt);
  const nextDay = Math.max(p.nextDay, span.from);
  const byRuns = runsPerCycle - p.runs;
  const byClock = Math.ceil((p.startedAt + cycleDays * 86_400_000 - now) / (everySeconds * 1000));
  const runsLeft = Math.max(1, Math.min(byRuns, byClock));
  const days = Math.ceil((span.to - nextDay + 1) / runsLeft);
  const slice = { from: nextDay, to: nextDay + days - 1 };

  // The cycle compares this connection's records; billing's records of other connections of the same
  // company and origin source are left to their own cycles.
  const group = billingGroup(rt, connectionId);
  const mine = { ...group, connections: [connectionId] };
  let billing = 0;
  let ledger = 0;
  const walk = async (w: DayWindow): Promise<void> => {
    if (w.from < w.to && (await ledgerCount(rt, mine, w)) > SUB_WINDOW_RECORDS) {
      const mid = Math.floor((w.from + w.to) / 2);
      await walk({ from: w.from, to: mid });
      await walk({ from: mid + 1, to: w.to });
      return;
    }
    const d = await diffInvoiceDateWindow(rt, group, w, report, { compare: true, signal, only: connectionId });
    billing += d.billing;
    ledger += d.ledger;
  };
  await walk(slice);

  const completed = slice.to >= span.to;
  await rt.reconcileCycle.set(connectionId, {
    startedAt: p.startedAt,
    runs: p.runs + 1,
    nextDay: slice.to + 1,
    lastCompletedAt: completed ? now : p.lastCompletedAt,
  });
  return { slice: windowText(slice), run: p.runs + 1, runsPerCycle, completed, billing, ledger, calls: group.calls };
}
