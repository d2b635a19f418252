import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { addDays } from '../../src/billing/dates.js';
import type { AppConfig } from '../../src/config.js';
import { type jobOptions, QUEUES, ReconcilePayload } from '../catalog.js';
import { withQuotaWaitPolicy } from '../../src/pipeline/quota-wait-policy.js';
import { defineJob } from '../define-job.js';
import { historyLane } from '../../src/waits/vendor-waits.js';
import { dateInZone } from './date-in-zone.js';
import { runReconcile } from './run-reconcile.js';
import type { ReconcileHelpers, ReconcileResult } from './types.js';
import { type HistoryReconcileHelpers, reconcileHistory } from './reconcile-history.js';
import { DRIFT_KINDS } from './drift.js';
import { addCounts, runHistoryChecks } from './history-checks.js';
import type { HistoryHelpers } from './invoice-date-window.js';

type ReconcileJobHelpers = ReconcileHelpers & { history?: HistoryHelpers };

/**
 * The reconcile job: one connection, a window (explicit, or the last N days in the configured zone), or
 * its whole history. Scheduled and API runs return a summary; a run someone waits for (`fullResult`,
 * `erp-sync reconcile`) returns the whole result.
 */
export function reconcileProcessor(rt: ReconcileJobHelpers) {
  return defineJob(QUEUES.reconcile, ReconcilePayload, rt, async ({ data, signal, log }) => {
    // A reconcile read is not resumable: it gives its worker slot back for a vendor quota wait only before its first call.
    let slots = 0;
    const quotaPolicy = {
      maxInPlaceWaitMs: rt.config.sync?.quotaWaitInPlaceMs ?? 1_000,
      deferrable: () => slots === 0,
      onSlot: () => void slots++,
      // Its source reads and repairs by id are history: announced reads take the vendor quota first.
      lane: () => historyLane(Boolean(rt.connection(data.connectionId).config.webhooks)),
    };
    if (data.wholeHistory) return withQuotaWaitPolicy(quotaPolicy, () => wholeHistory(rt, data, signal, log));
    const today = dateInZone(Date.now(), rt.config.reconcile.timeZone);
    const from = data.from ?? addDays(today, -(data.lastDays! - 1));
    const to = data.to ?? today;
    const r = await withQuotaWaitPolicy(quotaPolicy, () =>
      runReconcile(rt, { connectionId: data.connectionId, from, to, deep: data.deep, repair: data.repair }, signal),
    );
    if (data.history && rt.history) return withHistoryChecks(rt as HistoryReconcileHelpers, data, r, signal, log);
    log.info({ from, to, counts: r.counts, total: r.total }, r.total ? 'reconcile found drift' : 'reconcile clean');
    if (data.fullResult) return r;
    return { from, to, counts: r.counts, total: r.total, needsPerson: r.needsPerson, checked: r.checked };
  });
}

type JobLog = Pick<Logger, 'info'>;

/** The whole history, on demand: reconcile-history.ts. */
async function wholeHistory(
  rt: ReconcileJobHelpers,
  data: ReconcilePayload,
  signal: AbortSignal | undefined,
  log: JobLog,
) {
  if (!rt.history) throw new Error('a reconcile of the whole history needs the ledger date index (history helpers)');
  const r = await reconcileHistory(
    rt as HistoryReconcileHelpers,
    { connectionId: data.connectionId, deep: data.deep, repair: data.repair },
    signal,
  );
  log.info(
    { from: r.from, to: r.to, counts: r.counts, total: r.total },
    r.total ? 'reconcile found drift' : 'reconcile clean',
  );
  if (data.fullResult) return r;
  return { from: r.from, to: r.to, counts: r.counts, total: r.total, needsPerson: r.needsPerson, checked: r.checked };
}

/** Scheduled runs also reach records older than the window: a slice of the history cycle, the count invariant. */
async function withHistoryChecks(
  rt: HistoryReconcileHelpers,
  data: ReconcilePayload,
  r: ReconcileResult,
  signal: AbortSignal | undefined,
  log: JobLog,
) {
  const { from, to } = r;
  const h = await runHistoryChecks(rt.history, data.connectionId, signal);
  const counts = addCounts(r.counts, h.counts);
  for (const k of DRIFT_KINDS) rt.metrics.reconcileDrift.set({ connection: data.connectionId, kind: k }, counts[k]);
  const history = { cycle: h.cycle, invariant: h.invariant, items: h.items };
  log.info(
    { from, to, counts, total: r.total + h.total, cycle: h.cycle, invariant: h.invariant },
    r.total + h.total ? 'reconcile found drift' : 'reconcile clean',
  );
  return {
    from,
    to,
    counts,
    total: r.total + h.total,
    needsPerson: r.needsPerson + h.needsPerson,
    checked: r.checked,
    history,
  };
}

/** The id of the reconcile scheduler of a connection. */
export const reconcileSchedulerId = (connectionId: string): string => `reconcile-${connectionId}`;

/** A reconcile per connection on a schedule (default daily, the last 2 days), however many replicas start. */
export async function upsertReconcileSchedulers(rt: {
  config: Pick<AppConfig, 'reconcile' | 'connections'>;
  queues: { reconcile: Pick<Queue, 'upsertJobScheduler'> };
  options: Pick<ReturnType<typeof jobOptions>, 'reconcile'>;
}): Promise<number> {
  const { windowDays, everySeconds } = rt.config.reconcile;
  if (windowDays === 0) return 0;
  for (const c of rt.config.connections) {
    await rt.queues.reconcile.upsertJobScheduler(
      reconcileSchedulerId(c.id),
      { every: everySeconds * 1000 },
      {
        name: 'reconcile',
        data: { connectionId: c.id, lastDays: windowDays, history: true },
        opts: rt.options.reconcile,
      },
    );
  }
  return rt.config.connections.length;
}
