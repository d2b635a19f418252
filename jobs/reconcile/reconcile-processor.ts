import type { Queue } from 'bullmq';
import { addDays } from '../../src/billing/dates.js';
import type { AppConfig } from '../../src/config.js';
import { type jobOptions, QUEUES, ReconcilePayload } from '../catalog.js';
import { withQuotaWaitPolicy } from '../../src/pipeline/quota-wait-policy.js';
import { defineJob } from '../define-job.js';
import { historyLane } from '../../src/waits/vendor-waits.js';
import { dateInZone } from './date-in-zone.js';
import { runReconcile } from './run-reconcile.js';
import type { ReconcileHelpers } from './types.js';
import { DRIFT_KINDS } from './drift.js';
import { addCounts, runHistoryChecks } from './history-checks.js';
import type { HistoryHelpers } from './invoice-date-window.js';

/** The reconcile job: one connection, a window (explicit, or the last N days in the configured zone). */
export function reconcileProcessor(rt: ReconcileHelpers & { history?: HistoryHelpers }) {
  return defineJob(QUEUES.reconcile, ReconcilePayload, rt, async ({ data, signal, log }) => {
    const today = dateInZone(Date.now(), rt.config.reconcile.timeZone);
    const from = data.from ?? addDays(today, -(data.lastDays! - 1));
    const to = data.to ?? today;
    // A reconcile read is not resumable: it gives its worker slot back for a vendor quota wait only before its first call.
    let slots = 0;
    const r = await withQuotaWaitPolicy(
      {
        maxInPlaceWaitMs: rt.config.sync?.quotaWaitInPlaceMs ?? 1_000,
        deferrable: () => slots === 0,
        onSlot: () => void slots++,
        // Its source reads and repairs by id are history: announced reads take the vendor quota first.
        lane: () => historyLane(Boolean(rt.connection(data.connectionId).config.webhooks)),
      },
      () =>
        runReconcile(rt, { connectionId: data.connectionId, from, to, deep: data.deep, repair: data.repair }, signal),
    );
    if (data.history && rt.history) {
      // Scheduled runs also reach records older than the window: a slice of the history cycle, the count invariant.
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
    log.info({ from, to, counts: r.counts, total: r.total }, r.total ? 'reconcile found drift' : 'reconcile clean');
    return { from, to, counts: r.counts, total: r.total, needsPerson: r.needsPerson, checked: r.checked };
  });
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
