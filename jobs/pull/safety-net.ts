import type { UpsertJob } from '../upsert/enqueue-upserts.js';
import type { PullResult } from './types.js';
import type { PullRun } from './types.js';

/**
 * The incremental pull of a connection whose webhooks have delivered is a safety net: what it must write
 * should have been announced by a delivery. Changes made after the first delivery that none announced
 * are counted (`erpsync_webhook_missed_total`) and, past a threshold, put the connection back on its
 * short schedule (src/pipeline/webhook-health.ts). Backfill windows and targeted reads are not safety nets.
 */
function isSafetyNet(run: PullRun): boolean {
  return Boolean(run.handle.config.webhooks && !run.windowKey && !run.data.webhook && run.rt.webhookEvents);
}

/** Counts a page's changes no delivery announced, among those made since webhooks started delivering. */
export async function countUnannounced(run: PullRun, jobs: readonly UpsertJob[], result: PullResult): Promise<void> {
  const { rt, conn, entity } = run;
  if (!jobs.length || !isSafetyNet(run) || !rt.webhookHealth) return;
  const { firstDelivery } = await rt.webhookHealth.read(conn);
  if (firstDelivery === undefined) return;
  // Vendors version to the second (QuickBooks, Xero): a change in the second of the first delivery counts.
  const since = new Date(Math.floor(firstDelivery / 1000) * 1000).toISOString();
  const changed = jobs.filter((j) => j.data.version >= since).map((j) => j.data.erpId);
  const missed = await rt.webhookEvents!.unannounced(conn, entity, changed);
  if (missed.length) result.unannounced = (result.unannounced ?? 0) + missed.length;
}

/** At the end of a safety-net pull: the misses counted, and the connection's webhook health updated. */
export async function noteSafetyNet(run: PullRun, result: PullResult): Promise<void> {
  const { rt, conn, log } = run;
  if (!isSafetyNet(run) || !rt.webhookHealth) return;
  if ((await rt.webhookHealth.read(conn)).firstDelivery === undefined) return;
  const missed = result.unannounced ?? 0;
  if (missed) rt.metrics.webhookMissed.inc({ connection: conn }, missed);
  const after = await rt.webhookHealth.noteSafetyNetPull(conn, missed);
  if (missed) log.warn({ missed, degraded: !after.healthy }, 'safety-net pull found changes no webhook announced');
}
