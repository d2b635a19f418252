import type { Queue } from 'bullmq';
import { CREDIT_NOTE_PRIORITY_OFFSET, PRIORITY, type UpsertPayload } from '../jobs/catalog.js';
import { enqueueUpserts, upsertJobId, type UpsertJob } from '../jobs/upsert/enqueue-upserts.js';
import type { ConnectionHandle } from '../jobs/runtime.js';
import type { Told } from './audited.js';
import type { InFlight } from '../src/pipeline/in-flight.js';
import { HISTORY_HASH_CHARS, type RecordHistory } from '../src/pipeline/record-history.js';
import type { ReviewEntry, ReviewQueue } from '../src/pipeline/review-queue.js';
import { type ReviewSelection, selectReview } from './review-list.js';

/** What approving and rejecting use. */
export interface ReviewDecisionHelpers {
  connection(id: string): ConnectionHandle;
  review: Pick<ReviewQueue, 'list' | 'release' | 'reject' | 'closeFirstSync'>;
  inFlight: Pick<InFlight, 'track'>;
  queues: { upsert: Pick<Queue, 'addBulk'> };
  /** Each decided record's history gets an `approved` or `rejected` entry (absent: none kept). */
  recordHistory?: Pick<RecordHistory, 'appendMany'>;
}

export interface ApproveReport {
  /** Records handed to the upsert queue, marked approved. */
  approved: number;
  /** Records selected that were not waiting (rejected ones: they wait for a new source version). */
  notHeld: number;
  /** `first-sync`: the connection's first sync was approved as a whole; its records are written without review from now on. */
  firstSyncApproved: boolean;
  /** For the audit log (operations/audited.ts): the one record approved, if one, and the records named. */
  told: Pick<Told, 'record' | 'detail'>;
}

/** Approved records go to the upsert queue this many at a time. */
const CHUNK = 500;
/** Records named in the audit entry's detail at most. */
const NAMED = 20;

/**
 * `review approve`: the held records selected (one, several, or `all` of a connection) are handed to the
 * upsert queue again, marked approved (`approvedBy`: no review check), then leave the review queue. Each
 * approved version has its own job id, so approving again (after a crash in between) adds no second job,
 * and a job run twice (its worker killed) is one write: billing's upsert key and the ledger make it so.
 * `all` on a `first-sync` connection approves its first sync as a whole.
 */
export async function approveReview(
  rt: ReviewDecisionHelpers,
  s: ReviewSelection & { all?: boolean },
  by: string,
): Promise<ApproveReport> {
  const selected = await selectReview(rt, s);
  const held = selected.filter((e) => e.state === 'held');
  const firstSync = Boolean(s.all) && !s.entity && rt.connection(s.connection).config.review === 'first-sync';
  if (firstSync) await rt.review.closeFirstSync(s.connection, by);
  for (let i = 0; i < held.length; i += CHUNK) {
    const chunk = held.slice(i, i + CHUNK);
    // The decision in each record's history (before its write can be), then tracked in flight and enqueued
    // (enqueueUpserts), then out of the review queue: a crash in between leaves the record held, and
    // approving it again adds no second job.
    await tellDecided(rt, chunk, 'approved', by);
    await enqueueUpserts(
      rt,
      chunk.map((e) => approvedJob(e, by)),
    );
    for (const e of chunk) await rt.review.release(e);
  }
  const told = {
    ...(held.length === 1 ? { record: `${held[0]!.entity}/${held[0]!.erpId}` } : {}),
    detail: `${firstSync ? 'first sync approved; ' : ''}approved ${held.length}${named(held)}`,
  };
  return { approved: held.length, notHeld: selected.length - held.length, firstSyncApproved: firstSync, told };
}

/** The held version as an upsert job of its own, marked approved (credit notes after invoices, as a pull's). */
export function approvedJob(e: ReviewEntry, by: string): UpsertJob {
  const p = e.payload as UpsertPayload;
  return {
    name: 'upsert',
    data: { ...p, approvedBy: by },
    opts: {
      jobId: `${upsertJobId(p.connectionId, p.entity, p.erpId, p.hash)}-a`,
      priority: PRIORITY.incremental + (p.entity === 'credit-notes' ? CREDIT_NOTE_PRIORITY_OFFSET : 0),
    },
  };
}

/** The records named in an audit entry's detail (the first NAMED of them). */
export function named(entries: readonly ReviewEntry[]): string {
  if (!entries.length) return '';
  const ids = entries.slice(0, NAMED).map((e) => `${e.entity}/${e.erpId}`);
  return `: ${ids.join(', ')}${entries.length > NAMED ? `, … (${entries.length - NAMED} more)` : ''}`;
}

/** An `approved` or `rejected` entry in each decided record's history, by who decided. */
export async function tellDecided(
  rt: Pick<ReviewDecisionHelpers, 'recordHistory'>,
  entries: readonly ReviewEntry[],
  outcome: 'approved' | 'rejected',
  by: string,
  note?: string,
): Promise<void> {
  if (!rt.recordHistory || !entries.length) return;
  const byEntity = new Map<string, ReviewEntry[]>();
  for (const e of entries) byEntity.set(e.entity, [...(byEntity.get(e.entity) ?? []), e]);
  const at = Date.now();
  for (const [entity, own] of byEntity)
    await rt.recordHistory.appendMany(
      own[0]!.connection,
      entity,
      own.map((e) => ({
        erpId: e.erpId,
        entry: {
          outcome,
          at,
          version: e.version,
          hash: e.hash.slice(0, HISTORY_HASH_CHARS),
          by,
          ...(note ? { reason: note } : {}),
        },
      })),
    );
}
