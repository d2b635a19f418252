import { runCountInvariant, type CountInvariantResult } from './count-invariant.js';
import { runCycleSlice, type CycleSliceResult } from './cycle.js';
import { DRIFT_KINDS, DriftReport, type DriftKind } from './drift.js';
import type { HistoryHelpers } from './invoice-date-window.js';

export interface HistoryChecks {
  cycle?: CycleSliceResult;
  invariant?: CountInvariantResult;
  counts: Record<DriftKind, number>;
  total: number;
  needsPerson: number;
  items: DriftReport['items'];
}

/**
 * What a scheduled reconcile checks beyond its recent UPDATED_AT window, which only sees records billing
 * or the sync touched lately: the next slice of the history cycle (reconcile.cycleDays) and the count
 * invariant (reconcile.countInvariant). Both report drift of the existing kinds.
 */
export async function runHistoryChecks(
  rt: HistoryHelpers,
  connectionId: string,
  signal?: AbortSignal,
): Promise<HistoryChecks> {
  const report = new DriftReport(1_000);
  const out: Omit<HistoryChecks, 'counts' | 'total' | 'needsPerson' | 'items'> = {};
  if (rt.config.reconcile.cycleDays > 0) out.cycle = await runCycleSlice(rt, connectionId, report, signal);
  if (rt.config.reconcile.countInvariant.enabled) {
    // Drift the cycle already reported in this run is not reported twice.
    const invariantReport = new DriftReport(1_000);
    out.invariant = await runCountInvariant(rt, connectionId, invariantReport, { signal });
    const seen = new Set(report.items.map((i) => `${i.kind}|${i.erpId ?? i.invoiceId}`));
    for (const i of invariantReport.items) if (!seen.has(`${i.kind}|${i.erpId ?? i.invoiceId}`)) report.add(i);
  }
  return { ...out, counts: report.counts, total: report.total, needsPerson: report.needsPerson, items: report.items };
}

/** Adds the history checks' drift to a run's counts (the drift gauge shows the run's whole finding). */
export function addCounts(a: Record<DriftKind, number>, b: Record<DriftKind, number>): Record<DriftKind, number> {
  return Object.fromEntries(DRIFT_KINDS.map((k) => [k, a[k] + b[k]])) as Record<DriftKind, number>;
}
