import type { RunRecord } from '../../src/pipeline/run-history.js';
import type { PullPayload, ReconcilePayload } from '../catalog.js';
import type { PullResult } from '../pull/types.js';

/** When a run happened, and which job attempt it was (none for a reconciliation run by the CLI itself). */
export interface RunTiming {
  jobId?: string;
  attempt?: number;
  startedAt: number;
  endedAt: number;
}

/** How a run ended: with the processor's result, or with an error (and whether BullMQ tries the job again). */
export type RunEnding = { result: unknown } | { error: unknown; retrying: boolean; progress?: unknown };

const PULL_COUNTS = [
  'pulled',
  'enqueued',
  'unchanged',
  'notForBilling',
  'quarantined',
  'deleted',
  'pages',
] as const satisfies ReadonlyArray<keyof PullResult>;
/** What a pull reports with job.updateProgress after each page (jobs/pull/pull-processor.ts): what a failed pull had done. */
const PROGRESS_COUNTS = ['pages', 'pulled', 'enqueued'] as const;

export const ALREADY_RUNNING = 'an incremental pull of this stream is already running';

function numbersOf(value: unknown, names: readonly string[], fill?: number): Record<string, number> {
  const v = (value ?? {}) as Record<string, unknown>;
  const out: Record<string, number> = {};
  for (const n of names) {
    const x = v[n];
    if (typeof x === 'number') out[n] = x;
    else if (fill !== undefined) out[n] = fill;
  }
  return out;
}

function failure(ending: Extract<RunEnding, { error: unknown }>): Pick<RunRecord, 'outcome' | 'error' | 'retrying'> {
  const e = ending.error;
  return { outcome: 'failed', error: e instanceof Error ? e.message : String(e), retrying: ending.retrying };
}

/**
 * A pull job's run: an incremental pull, or one window of a backfill. Its counts are the PullResult's; a
 * failed pull counts what it had done before it failed (its last progress report, pages it finished).
 *
 * A skipped pull is told by its result: an incremental pull returns a null cursor only when it skipped
 * because another pull of the stream was running (a finished read always returns the instant it read up
 * to). test/jobs/admission/with-run-history.test.ts holds jobs/pull/pull-processor.ts to that.
 */
export function pullRunRecord(data: PullPayload, timing: RunTiming, ending: RunEnding): RunRecord {
  const base: RunRecord = {
    kind: data.window ? 'backfill-window' : 'pull',
    connection: data.connectionId,
    entity: data.entity,
    ...(data.window ? { window: data.window } : {}),
    ...(data.runId ? { runId: data.runId } : {}),
    ...timing,
    outcome: 'ok',
    counts: {},
  };
  if ('error' in ending) return { ...base, ...failure(ending), counts: numbersOf(ending.progress, PROGRESS_COUNTS) };
  const result = ending.result as Partial<PullResult> | undefined;
  if (!data.window && result?.cursor === null)
    return { ...base, outcome: 'skipped', reason: ALREADY_RUNNING, counts: {} };
  return { ...base, counts: numbersOf(result, PULL_COUNTS, 0) };
}

/** What a reconciliation returns that the history keeps: the reconcile job's summary (or the CLI's whole result). */
interface ReconcileSummary {
  from: string;
  to: string;
  counts: Record<string, number>;
  total: number;
  needsPerson: number;
  checked: { billing: number; ledger: number; source: number };
}

/** A reconciliation's run: its drift counts by kind, total, needsPerson and how many records it checked. */
export function reconcileRunRecord(data: ReconcilePayload, timing: RunTiming, ending: RunEnding): RunRecord {
  const base: RunRecord = {
    kind: 'reconcile',
    connection: data.connectionId,
    ...(data.from && data.to
      ? { window: { from: data.from, to: data.to } }
      : data.lastDays
        ? { lastDays: data.lastDays }
        : {}),
    ...(data.deep ? { deep: true } : {}),
    ...timing,
    outcome: 'ok',
    counts: {},
  };
  if ('error' in ending) return { ...base, ...failure(ending) };
  const r = ending.result as ReconcileSummary;
  const { lastDays: _, ...rest } = base;
  return {
    ...rest,
    window: { from: r.from, to: r.to },
    counts: {
      ...r.counts,
      total: r.total,
      needsPerson: r.needsPerson,
      checkedBilling: r.checked.billing,
      checkedLedger: r.checked.ledger,
      checkedSource: r.checked.source,
    },
  };
}
