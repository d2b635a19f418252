import { z } from 'zod';
import type { InFlightEntry } from '../../src/pipeline/in-flight.js';
import { QUEUES, UPSERT_BATCH, type UpsertPayload } from '../catalog.js';
import { defineJob } from '../define-job.js';
import { accountForFailedUpsert } from '../upsert/failed-upsert.js';
import { enqueueUpserts, upsertJobId } from '../upsert/enqueue-upserts.js';
import type { SweepAction, SweepHelpers, SweepResult } from './types.js';

export const SweepPayload = z.strictObject({ connectionId: z.string().min(1).optional() });

/**
 * Accounted for, always: every in-flight record older than `sync.sweepGraceSeconds` is checked against
 * its upsert job.
 * - job waiting, delayed, active: still on its way, left alone;
 * - job completed, or gone while the ledger (or quarantine) already holds this version: its outcome
 *   happened and only the bookkeeping was interrupted: settled;
 * - job failed: BullMQ ended it where no worker saw (a job stalled past `sync.maxStalledCount` is failed
 *   inside BullMQ's stalled-job check), or the worker died before it quarantined the record: quarantined
 *   now with its reason (jobs/upsert/failed-upsert.ts) and the failed job removed;
 * - job gone (deleted, or lost with a Redis that lost writes): enqueued again from the payload kept in
 *   the index, under a new job id.
 * The last two are counted in `erpsync_records_recovered_total` (alert ErpSyncRecordsRecovered) and in
 * `erp-sync status`; the scheduled reconcile runs the same sweep and reports them as `lost_in_flight`.
 */
export async function sweepInFlight(h: SweepHelpers, connection: string, now = Date.now()): Promise<SweepResult> {
  const result: SweepResult = { connection, inFlight: 0, looked: 0, settled: 0, recovered: [] };
  const graceMs = h.config.sync.sweepGraceSeconds * 1000;
  for await (const batch of h.inFlight.scan(connection)) {
    result.inFlight += batch.length;
    const old = batch.filter((e) => now - e.enqueuedAt >= graceMs);
    result.looked += old.length;
    for (const entry of old) await sweepOne(h, connection, entry as InFlightEntry<UpsertPayload>, result, now);
  }
  h.metrics.inFlightRecords.set(
    { connection },
    result.inFlight - result.settled - result.recovered.filter((r) => r.action === 'quarantined').length,
  );
  await h.syncStatus.recordSweep(connection, result.recovered.length, now);
  return result;
}

async function sweepOne(
  h: SweepHelpers,
  connection: string,
  entry: InFlightEntry<UpsertPayload>,
  result: SweepResult,
  now: number,
): Promise<void> {
  const { entity, erpId, jobId, payload } = entry;
  // The state alone first (one script, no payload read): most entries are simply still on their way.
  const state = await h.queues.upsert.getJobState(jobId);
  if (state === 'completed') {
    if (await h.inFlight.settle(connection, entity, erpId, jobId)) result.settled++;
    return;
  }
  const job = state === 'failed' ? await h.queues.upsert.getJob(jobId) : undefined;
  if (job) {
    // A failed batch's records go on as jobs of their own; a failed single-record job's record is quarantined.
    const action: SweepAction = job.name === UPSERT_BATCH ? 're-enqueued' : 'quarantined';
    if (await accountForFailedUpsert(h, job)) {
      result.recovered.push({ entity, erpId, version: payload.version, action, detail: job.failedReason ?? 'failed' });
      h.metrics.recordsRecovered.inc({ connection, entity, action });
      h.logger.warn(
        { connection, entity, erpId, jobId, reason: job.failedReason },
        action === 'quarantined'
          ? 'sweep: an upsert job had failed unaccounted; the record is quarantined'
          : 'sweep: an upsert batch had failed unaccounted; its records go on as jobs of their own',
      );
    }
    return;
  }
  if (state !== 'unknown') return; // waiting, delayed, prioritized, active: on its way (or failed and just removed)
  const [written] = await h.ledger.getMany(connection, entity as UpsertPayload['entity'], [erpId]);
  const quarantined = await h.quarantine.get(connection, entity, erpId);
  if ((written && written.version >= payload.version) || (quarantined && quarantined.version >= payload.version)) {
    if (await h.inFlight.settle(connection, entity, erpId, jobId)) result.settled++;
    return;
  }
  // Read again: a failed batch accounted for a moment ago (above, for another of its records) hands every
  // record it had not finished to a job of its own, so this entry may name that job now.
  if ((await h.inFlight.get(connection, entity, erpId))?.jobId !== jobId) return;
  const newId = `${upsertJobId(connection, payload.entity, erpId, payload.hash)}-s${now.toString(36)}`;
  await enqueueUpserts(h, [{ name: 'upsert', data: payload, opts: { jobId: newId } }]);
  result.recovered.push({
    entity,
    erpId,
    version: payload.version,
    action: 're-enqueued',
    detail: `job ${jobId} is gone; enqueued again as ${newId}`,
  });
  h.metrics.recordsRecovered.inc({ connection, entity, action: 're-enqueued' });
  h.logger.warn(
    { connection, entity, erpId, jobId, newJobId: newId },
    'sweep: an in-flight record had lost its upsert job; enqueued again',
  );
}

/**
 * The scheduled sweep: every connection (or the one named), one after the other; then a slice of the
 * connection's record-history buckets is pruned of outcomes older than `history.days`, and one sample of
 * its trend series is taken (the console's charts).
 */
export function sweepProcessor(h: SweepHelpers) {
  return defineJob(QUEUES.sweep, SweepPayload, h, async ({ data, log }) => {
    const out: Array<SweepResult & { historyDropped: number }> = [];
    for (const connection of data.connectionId ? [data.connectionId] : h.connectionIds()) {
      const result = await sweepInFlight(h, connection);
      out.push({ ...result, historyDropped: await pruneHistory(h, connection, log) });
      await sampleTrendsOf(h, connection, log);
    }
    const recovered = out.reduce((n, r) => n + r.recovered.length, 0);
    if (recovered) log.warn({ recovered }, 'sweep recovered in-flight records');
    return out.map((r) => ({
      connection: r.connection,
      inFlight: r.inFlight,
      settled: r.settled,
      recovered: r.recovered.length,
      historyDropped: r.historyDropped,
    }));
  });
}

/** Record history's prune for the connection: entries dropped; a failure is logged, and the sweep goes on. */
async function pruneHistory(h: SweepHelpers, connection: string, log: Pick<SweepHelpers['logger'], 'warn'>) {
  try {
    return (await h.recordHistory?.prune(connection))?.entries ?? 0;
  } catch (err) {
    log.warn({ connection, err }, 'sweep: record history prune failed; the next run tries again');
    return 0;
  }
}

/** The trend sample; a failure is logged (the charts miss one point), and the sweep goes on. */
async function sampleTrendsOf(h: SweepHelpers, connection: string, log: Pick<SweepHelpers['logger'], 'warn'>) {
  try {
    await h.sampleTrends?.(connection);
  } catch (err) {
    log.warn({ connection, err }, 'sweep: trend sample failed; the next run tries again');
  }
}
