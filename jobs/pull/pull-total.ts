import type { ReadContext, StreamPage } from '../../src/connector/types.js';
import { DataContractError, RejectedError, TransientError } from '../../src/errors/index.js';
import type { PullRun } from './types.js';

/** A long read: a stream's first sync, a backfill window, or a repair's pull (an incremental pull is none). */
export type LongRead = 'first-sync' | 'backfill' | 'repair';

/**
 * The records a long read will hand out: what the vendor's list answer announced (`vendor`), else the
 * count the quota projection's first-sync estimate makes (`estimate`: operations/project-calls.ts, the
 * connector's QuotaProfile.countRecords, which counts the whole stream, not a repair's rewind).
 */
export interface PullTotal {
  records: number;
  source: 'vendor' | 'estimate';
}

/** What a pull reports to BullMQ after each page (jobs/pull/pull-stream.ts; read by operations/stream-progress.ts). */
export interface PullJobProgress {
  pages?: number;
  pulled?: number;
  enqueued?: number;
  total?: PullTotal;
}

/** Which long read a pull is, or null: a webhook's read by id and an incremental pull of a synced stream are none. */
export function longReadOf(run: Pick<PullRun, 'data'>, firstSync: boolean): LongRead | null {
  if (run.data.webhook) return null;
  if (run.data.window) return 'backfill';
  if (run.data.runId) return 'repair';
  return firstSync ? 'first-sync' : null;
}

/** Seconds left at the pace so far (`perSecond`), or null where no total is known or the read is past it. */
export function secondsLeftOf(done: number, total: PullTotal | null | undefined, perSecond: number | null) {
  if (!total || !perSecond || perSecond <= 0 || done >= total.records) return null;
  return Math.round((total.records - done) / perSecond);
}

/** Errors of the count itself that leave the read without a total rather than failing it. */
const COUNT_FAILURES = [TransientError, RejectedError, DataContractError];

/**
 * The total of one long read, learnt as it goes: the vendor's announced total from the first page that
 * carries one; else, for a first sync or a repair that has a second page (a one-page read is done before
 * a count would help), one count at the source, its calls spent from the connection's quota like any
 * read's. A backfill window without an announced total has its run's windows as its total
 * (operations/stream-progress.ts); the count would be the whole stream's, not the window's.
 */
export function pullTotal(run: PullRun, kind: LongRead | null, ctx: ReadContext) {
  let total: PullTotal | null = null;
  let counted = false;
  return {
    async afterPage(page: StreamPage<any, any>, pages: number): Promise<PullTotal | null> {
      if (!kind) return null;
      if (page.announcedTotal !== undefined) total = { records: page.announcedTotal, source: 'vendor' };
      else if (!total && !counted && pages >= 2 && kind !== 'backfill') {
        counted = true;
        total = await estimate(run, ctx);
      }
      return total;
    },
  };
}

async function estimate(run: PullRun, ctx: ReadContext): Promise<PullTotal | null> {
  const profile = run.handle.connector.quotaProfile;
  if (!profile) return null;
  try {
    const counted = await profile.countRecords(ctx, run.entity);
    return { records: counted.records, source: 'estimate' };
  } catch (err) {
    if (!COUNT_FAILURES.some((E) => err instanceof E)) throw err;
    run.log.warn({ err: (err as Error).message }, 'counting the stream for its progress failed; no total shown');
    return null;
  }
}

/**
 * The long read's figures as gauges (connection, entity): records read, the total and the time left,
 * set after each page by the worker running it, and removed when the read stops.
 */
export function progressGauges(run: PullRun, kind: LongRead | null, startedMs: number) {
  const labels = { connection: run.conn, entity: run.entity };
  const m = run.rt.metrics;
  return {
    set(pulled: number, total: PullTotal | null, now = Date.now()): void {
      if (!kind) return;
      const elapsed = (now - startedMs) / 1000;
      m.pullProgressRecords.set(labels, pulled);
      if (total) m.pullProgressTotal.set(labels, total.records);
      const left = secondsLeftOf(pulled, total, elapsed > 0 ? pulled / elapsed : null);
      if (left === null) m.pullProgressSecondsLeft.remove(labels);
      else m.pullProgressSecondsLeft.set(labels, left);
    },
    clear(): void {
      if (!kind) return;
      for (const g of [m.pullProgressRecords, m.pullProgressTotal, m.pullProgressSecondsLeft]) g.remove(labels);
    },
  };
}
