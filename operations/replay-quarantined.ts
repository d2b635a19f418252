import type { Queue } from 'bullmq';
import type { UpsertPayload } from '../jobs/catalog.js';
import { enqueueUpserts, upsertJobId, type UpsertJob } from '../jobs/upsert/enqueue-upserts.js';
import type { Checkpoints } from '../src/pipeline/checkpoints.js';
import type { InFlight } from '../src/pipeline/in-flight.js';
import type { QuarantineEntry } from '../src/pipeline/quarantine.js';
import type { HistoryEntry, RecordHistory } from '../src/pipeline/record-history.js';
import { requeuedEntry } from '../jobs/upsert/upsert-history.js';

export interface ReplayReport {
  /** Records replayed: they leave quarantine when they succeed. */
  replayed: number;
  /** Upsert failures enqueued again from their stored payload. */
  reenqueued: number;
  /** Entities pulled again from a rewound checkpoint (map failures). */
  repulled: string[];
}

/**
 * Replays quarantined records (of one connection). Upsert failures are re-enqueued from their stored
 * payload (a new job id, so no completed job of the same content can absorb it); map failures rewind the
 * stream's checkpoint to just before the oldest replayed version and pull again, so the record is read
 * and mapped anew.
 */
export async function replayQuarantined(
  rt: {
    inFlight: Pick<InFlight, 'track'>;
    checkpoints: Pick<Checkpoints, 'rewindCheckpoint'>;
    queues: { upsert: Pick<Queue, 'addBulk'>; pull: Pick<Queue, 'add'> };
    /** Each replayed record's history gets a `replayed` entry (absent: none kept). */
    recordHistory?: Pick<RecordHistory, 'appendMany'>;
  },
  entries: QuarantineEntry[],
): Promise<ReplayReport> {
  const rewind = new Map<string, string>();
  const jobs: UpsertJob[] = [];
  for (const e of entries) {
    if (e.stage === 'upsert' && e.payload) {
      const p = e.payload as UpsertPayload;
      jobs.push({
        name: 'upsert',
        data: { ...p, path: 'replay' },
        opts: { jobId: `${upsertJobId(p.connectionId, p.entity, p.erpId, p.hash)}-r${Date.now().toString(36)}` },
      });
    } else {
      const key = e.entity;
      const before = new Date(Date.parse(e.version) - 1000).toISOString();
      if (!rewind.has(key) || before < rewind.get(key)!) rewind.set(key, before);
    }
  }
  // Tracked in flight like a pull's records: a replayed record is accounted for until its outcome.
  await enqueueUpserts(rt, jobs);
  await tellReplayed(rt, entries, jobs);
  for (const [entity, cursor] of rewind) {
    // Never forward, and safe against a pull saving at the same moment (Checkpoints.rewindCheckpoint).
    await rt.checkpoints.rewindCheckpoint(entries[0]!.connection, entity, cursor);
    await rt.queues.pull.add('pull', { connectionId: entries[0]!.connection, entity }, { priority: 1 });
  }
  return { replayed: entries.length, reenqueued: jobs.length, repulled: [...rewind.keys()] };
}

/** A `replayed` entry in each record's history: with its new job for an upsert failure, without for a map failure (pulled again). */
async function tellReplayed(
  rt: { recordHistory?: Pick<RecordHistory, 'appendMany'> },
  entries: readonly QuarantineEntry[],
  jobs: readonly UpsertJob[],
): Promise<void> {
  if (!rt.recordHistory) return;
  const jobOf = new Map(jobs.map((j) => [`${j.data.entity}|${j.data.erpId}`, j]));
  const byEntity = new Map<string, Array<{ erpId: string; entry: HistoryEntry }>>();
  for (const e of entries) {
    const job = jobOf.get(`${e.entity}|${e.erpId}`);
    const item = job
      ? requeuedEntry('replayed')(job)
      : {
          erpId: e.erpId,
          entry: { outcome: 'replayed' as const, at: Date.now(), version: e.version, path: 'replay' as const },
        };
    byEntity.set(e.entity, [...(byEntity.get(e.entity) ?? []), item]);
  }
  for (const [entity, items] of byEntity) await rt.recordHistory.appendMany(entries[0]!.connection, entity, items);
}
