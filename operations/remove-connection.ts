import type { Queue } from 'bullmq';
import { ENTITY_NAMES } from '../src/connector/entities.js';
import {
  type ConnectionAdmin,
  companyOf,
  managedConnection,
  refused,
  type StoredConnectionsRuntime,
  storedView,
  type StoredView,
} from './stored-connection-rules.js';

export interface RemovedConnection {
  connection: StoredView;
  /** The job schedulers removed (its pulls, its reconcile). */
  schedulers: string[];
  /** Its pulls, backfill windows and reconciliations that were queued and had not started, removed. */
  removedJobs: number;
  /** Keys of its state deleted (`purge`); otherwise null, and `purgeAfter` says when the sweep purges it. */
  purgedKeys: number | null;
  purgeAfter: string | null;
}

const DAY_MS = 86_400_000;

/**
 * Removes a stored connection at once: marked removed (every worker drops it within seconds), its job
 * schedulers removed and its jobs not started yet removed from the pull, backfill and reconcile queues
 * (upserts already queued still write what was read: the ledger stays true). Its state (checkpoints,
 * ledger, quarantine, history) is kept for `storedConnections.retentionDays`, for reconciliation and
 * history, then purged by the workers; `purge` purges it now and frees the id. A removed connection may be
 * purged again (`purge` only). A YAML connection is read-only (409).
 */
export async function removeConnection(
  rt: StoredConnectionsRuntime,
  id: string,
  by: ConnectionAdmin,
  options: { purge?: boolean } = {},
): Promise<RemovedConnection> {
  const removedBefore = await rt.storedConnections.get(id);
  if (options.purge && removedBefore?.removedAt !== undefined && !by.companies) return purgeNow(rt, removedBefore);
  const { entry, running } = await managedConnection(rt, id, by);
  const now = Date.now();
  const removed = { ...entry, removedAt: now, removedBy: by.who, updatedAt: now, updatedBy: by.who };
  if (!(await rt.storedConnections.replace(removed))) throw refused('not-found', `no connection "${id}"`);
  const stopped = await stopJobs(rt, id);
  if (options.purge) return { ...(await purgeNow(rt, removed)), ...stopped };
  const purgeAfter = new Date(now + rt.config.storedConnections.retentionDays * DAY_MS).toISOString();
  return {
    connection: storedView(removed, running && companyOf(rt, running)),
    ...stopped,
    purgedKeys: null,
    purgeAfter,
  };
}

async function purgeNow(
  rt: StoredConnectionsRuntime,
  entry: Parameters<typeof storedView>[0],
): Promise<RemovedConnection> {
  const purgedKeys = await rt.storedConnections.purgeState(entry.id);
  await rt.storedConnections.forget(entry.id);
  return { connection: storedView(entry, undefined), schedulers: [], removedJobs: 0, purgedKeys, purgeAfter: null };
}

/** Its schedulers and its jobs not started yet, gone from every queue that runs a connection's reads. */
async function stopJobs(rt: StoredConnectionsRuntime, id: string) {
  const schedulers: string[] = [];
  // The ids app/worker-service.ts and jobs/reconcile give them: `pull-<id>-<entity>`, `reconcile-<id>`.
  const wanted = new Set([...ENTITY_NAMES.map((e) => `pull-${id}-${e}`), `reconcile-${id}`]);
  for (const q of [rt.queues.pull, rt.queues.reconcile])
    for (const s of await q.getJobSchedulers(0, -1))
      if (wanted.has(s.key) && (await q.removeJobScheduler(s.key))) schedulers.push(s.key);
  let removedJobs = 0;
  for (const q of [rt.queues.pull, rt.queues.backfill, rt.queues.reconcile]) removedJobs += await removeQueued(q, id);
  return { schedulers, removedJobs };
}

async function removeQueued(q: Queue, id: string): Promise<number> {
  let n = 0;
  for (const job of await q.getJobs(['wait', 'prioritized', 'delayed', 'waiting-children'], 0, -1)) {
    if ((job?.data as { connectionId?: string } | undefined)?.connectionId !== id) continue;
    // Started meanwhile: it finds no connection at its next step and ends (a removed connection has no handle).
    await job.remove().then(
      () => n++,
      () => undefined,
    );
  }
  return n;
}

/** Removed connections past the retention: their state purged and their entries forgotten. Returns their ids. */
export async function purgeExpiredConnections(
  rt: Pick<StoredConnectionsRuntime, 'config' | 'storedConnections'>,
  now = Date.now(),
): Promise<string[]> {
  const cutoff = now - rt.config.storedConnections.retentionDays * DAY_MS;
  const purged: string[] = [];
  for (const e of await rt.storedConnections.list()) {
    if (e.removedAt === undefined || e.removedAt > cutoff) continue;
    await rt.storedConnections.purgeState(e.id);
    if (await rt.storedConnections.forget(e.id)) purged.push(e.id);
  }
  return purged;
}
