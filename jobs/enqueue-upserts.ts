import type { Queue } from 'bullmq';
import type { InFlight } from '../src/pipeline/in-flight.js';
import type { UpsertPayload } from './catalog.js';

export interface UpsertJob {
  name: 'upsert';
  data: UpsertPayload;
  opts: { jobId: string; priority?: number };
}

/**
 * The one way records enter the upsert queue (pulls, replays, the sweep): each is tracked in the
 * in-flight index first, then the jobs are added in one addBulk. Tracked first, so a crash in between
 * leaves an entry the sweep re-enqueues, never a job nobody accounts for.
 */
export async function enqueueUpserts(
  h: { inFlight: Pick<InFlight, 'track'>; queues: { upsert: Pick<Queue, 'addBulk'> } },
  jobs: readonly UpsertJob[],
): Promise<void> {
  if (!jobs.length) return;
  const byConnection = new Map<string, UpsertJob[]>();
  for (const j of jobs) byConnection.set(j.data.connectionId, [...(byConnection.get(j.data.connectionId) ?? []), j]);
  for (const [connection, own] of byConnection)
    await h.inFlight.track(
      connection,
      own.map((j) => ({ entity: j.data.entity, erpId: j.data.erpId, jobId: j.opts.jobId, payload: j.data })),
    );
  await h.queues.upsert.addBulk([...jobs]);
}
