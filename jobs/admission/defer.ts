import { DelayedError, type Job } from 'bullmq';
import type { Metrics } from '../../src/observability/metrics.js';
import type { WakeLine } from '../../src/pipeline/wake-line.js';

/**
 * Why a job goes back to the queue, delayed, without using an attempt:
 * - `connection-slots`: its connection already runs `sync.maxJobsPerConnection` jobs;
 * - `quota`: it waits for the next vendor slot (minute window or concurrency);
 * - `park`: the vendor's day is spent, it is down, or it asked for a long wait;
 * - `paused`: its connection is paused (jobs/admission/connection-gate.ts);
 * - `pull-running`: a repair's pull waits for the running pull of its stream;
 * - `record-locked`: another version of its record is being written;
 * - `billing-slot`: its billing key's next slot is later (after a full window or a 429 on the key);
 * - `dependency`: a credit note waits for its invoices to reach billing.
 */
export type DeferReason =
  'connection-slots' | 'quota' | 'park' | 'paused' | 'pull-running' | 'record-locked' | 'billing-slot' | 'dependency';

/** The reasons counted in erpsync_jobs_deferred_total (docs/metrics.md): the waits for a connection's slots or its vendor. */
const COUNTED: ReadonlySet<DeferReason> = new Set(['connection-slots', 'quota', 'park']);

export interface Deferral {
  reason: DeferReason;
  /** The earliest instant (ms) the job may start again. */
  at: number;
  /**
   * The one jitter rule: the job starts at a random instant in [at, at + jitterMs), so jobs set aside
   * together do not all start in the same instant. 0 (default) for an instant that is already a slot.
   */
  jitterMs?: number;
  /** Instead of jitter, a place in the connection's wake line (waits spaced `spacingMs` apart, from `at`). */
  line?: { wakeLine: Pick<WakeLine, 'next'>; connection: string; lane: 'quota' | 'slots'; spacingMs: number };
  /** The payload the job carries from then on. */
  data?: unknown;
  random?: () => number;
}

/** When a deferral's job starts again: its place in the wake line, or its instant plus jitter. */
export async function deferredUntil(d: Pick<Deferral, 'at' | 'jitterMs' | 'line' | 'random'>): Promise<number> {
  if (d.line) return d.line.wakeLine.next(d.line.connection, d.line.lane, d.at, d.line.spacingMs);
  return d.at + Math.floor((d.random ?? Math.random)() * (d.jitterMs ?? 0));
}

/** Where erpsync_jobs_deferred_total counts a deferral: the queue's name. */
export interface DeferralCount {
  metrics: Pick<Metrics, 'jobsDeferred'>;
  queue: string;
}

/**
 * The only place a job is put back for later (BullMQ's moveToDelayed): the job keeps its attempts and its
 * worker slot serves another job meanwhile. Returns the instant chosen; the caller throws DelayedError
 * (or calls `defer`, which does).
 */
export async function putBack(
  job: Job,
  token: string | undefined,
  d: Deferral,
  count?: DeferralCount,
): Promise<number> {
  const at = await deferredUntil(d);
  if (d.data !== undefined) await job.updateData(d.data);
  if (count && COUNTED.has(d.reason)) count.metrics.jobsDeferred.inc({ queue: count.queue, reason: d.reason });
  await job.moveToDelayed(at, token);
  return at;
}

/** Puts the job back for later and ends its run: DelayedError tells the worker "moved, not done". */
export async function defer(job: Job, token: string | undefined, d: Deferral, count?: DeferralCount): Promise<never> {
  await putBack(job, token, d, count);
  throw new DelayedError();
}
