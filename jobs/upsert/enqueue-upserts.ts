import type { Queue } from 'bullmq';
import type { EntityName } from '../../src/connector/entities.js';
import { jobIdSafe } from '../../src/mapping/index.js';
import { contentHash } from '../../src/pipeline/content-hash.js';
import type { InFlight } from '../../src/pipeline/in-flight.js';
import {
  KEPT_COMPLETED_UPSERT_RECORDS,
  UPSERT_BATCH,
  type UpsertBatchPayload,
  type UpsertPayload,
} from '../catalog.js';

export interface UpsertJob {
  name: 'upsert';
  data: UpsertPayload;
  opts: { jobId: string; priority?: number; delay?: number };
}

export interface UpsertBatchJob {
  name: typeof UPSERT_BATCH;
  data: UpsertBatchPayload;
  opts: { jobId: string; priority?: number; removeOnComplete?: { count: number } };
}

const ENTITY_CODE = { invoices: 'inv', 'credit-notes': 'cn', customers: 'cust' } as const satisfies Record<
  EntityName,
  string
>;

/** Deterministic upsert job id: same record + same content = same id (BullMQ ignores the duplicate). */
export function upsertJobId(connectionId: string, entity: EntityName, erpId: string, hash: string): string {
  return jobIdSafe('up', connectionId, ENTITY_CODE[entity], erpId, hash.slice(0, 16));
}

/**
 * The one way records enter the upsert queue (pulls, replays, the sweep, records leaving a batch): each
 * is tracked in the in-flight index first, under the job that carries it (its own, or its batch), then
 * the jobs are added in one addBulk. Tracked first, so a crash in between leaves an entry the sweep
 * re-enqueues, never a job nobody accounts for.
 */
export async function enqueueUpserts(
  h: { inFlight: Pick<InFlight, 'track'>; queues: { upsert: Pick<Queue, 'addBulk'> } },
  jobs: ReadonlyArray<UpsertJob | UpsertBatchJob>,
): Promise<void> {
  if (!jobs.length) return;
  const byConnection = new Map<
    string,
    Array<{ entity: string; erpId: string; jobId: string; payload: UpsertPayload }>
  >();
  for (const j of jobs) {
    const records = j.name === UPSERT_BATCH ? j.data.records : [j.data];
    const own = byConnection.get(j.data.connectionId) ?? [];
    for (const r of records) own.push({ entity: r.entity, erpId: r.erpId, jobId: j.opts.jobId, payload: r });
    byConnection.set(j.data.connectionId, own);
  }
  for (const [connection, own] of byConnection) await h.inFlight.track(connection, own);
  await h.queues.upsert.addBulk([...jobs]);
}

/**
 * A page's single-record jobs as jobs of up to `size` records each (`sync.upsertBatchSize`), one
 * connection, entity and priority per batch; `size` 1 leaves them as they are. A batch's id is derived
 * from its records' own job ids, so the same page pulled again (a retried pull) gives the same batches,
 * which BullMQ ignores as duplicates while they exist.
 */
export function batchUpserts(
  jobs: readonly UpsertJob[],
  size: number,
  runId?: string,
): Array<UpsertJob | UpsertBatchJob> {
  if (size <= 1 || jobs.length <= 1) return [...jobs];
  const groups = new Map<string, UpsertJob[]>();
  for (const j of jobs) {
    const key = `${j.data.connectionId}|${j.data.entity}|${j.opts.priority ?? ''}`;
    const g = groups.get(key);
    if (g) g.push(j);
    else groups.set(key, [j]);
  }
  const out: Array<UpsertJob | UpsertBatchJob> = [];
  for (const group of groups.values()) {
    for (let i = 0; i < group.length; i += size) {
      const part = group.slice(i, i + size);
      if (part.length === 1) {
        out.push(part[0]!);
        continue;
      }
      const { connectionId, entity } = part[0]!.data;
      const priority = part[0]!.opts.priority;
      out.push({
        name: UPSERT_BATCH,
        data: { connectionId, entity, records: part.map((j) => j.data), ...(runId ? { runId } : {}) },
        opts: {
          jobId: jobIdSafe('ub', connectionId, contentHash(part.map((j) => j.opts.jobId)).slice(0, 24)),
          ...(priority !== undefined ? { priority } : {}),
          // Completed jobs are kept for the queue UI and `erp-sync explain` only: the last
          // KEPT_COMPLETED_UPSERT_RECORDS records' worth, not that many batches.
          removeOnComplete: { count: Math.ceil(KEPT_COMPLETED_UPSERT_RECORDS / size) },
        },
      });
    }
  }
  return out;
}

/**
 * The job a record leaving batch `batchJobId` gets: its own job id with the batch's mark, so the batch
 * run again (after a crash) hands it to the same job, which BullMQ does not add twice.
 */
export function handOverJobId(
  record: Pick<UpsertPayload, 'connectionId' | 'entity' | 'erpId' | 'hash'>,
  batchJobId: string,
): string {
  return jobIdSafe(
    upsertJobId(record.connectionId, record.entity, record.erpId, record.hash),
    `x${contentHash(batchJobId).slice(0, 8)}`,
  );
}
