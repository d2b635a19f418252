import type { Redis } from 'ioredis';
import { ENTITY_NAMES } from '../connector/entities.js';
import type { StateKeys } from './keys.js';

export const RUN_KINDS = ['pull', 'backfill-window', 'reconcile'] as const;
/** An incremental pull, one window of a backfill (both jobs on the pull queue), or a reconciliation. */
export type RunKind = (typeof RUN_KINDS)[number];
/** `skipped`: the job ran and chose to do nothing (an incremental pull of the stream was already running). */
export type RunOutcome = 'ok' | 'failed' | 'skipped';

/** One run of a job: who it was, when, what it counted, and how it ended. Never a job's data body. */
export interface RunRecord {
  kind: RunKind;
  connection: string;
  /** The entity of a pull or backfill window; absent for a reconciliation. */
  entity?: string;
  /** Inclusive days: a backfill window's document dates, a reconciliation's UPDATED_AT days (when known). */
  window?: { from: string; to: string };
  /** A scheduled reconciliation that failed before it computed its window: the last N days it was for. */
  lastDays?: number;
  /** A reconciliation that also read the source. */
  deep?: boolean;
  /** The backfill (or repair) run the job belongs to. */
  runId?: string;
  /** The BullMQ job; absent for a reconciliation `erp-sync reconcile` ran in its own process. */
  jobId?: string;
  /** Which attempt of the job this was (1 = the first). */
  attempt?: number;
  /** ms since epoch. */
  startedAt: number;
  endedAt: number;
  outcome: RunOutcome;
  /**
   * A pull's pulled, enqueued, unchanged, notForBilling, quarantined, deleted and pages; a
   * reconciliation's drift counts by kind, total, needsPerson and the records it checked.
   */
  counts: Record<string, number>;
  /** Why the run failed (errors carry no secrets: src/errors), cut to 500 characters. */
  error?: string;
  /** A failed attempt BullMQ will try again (attempts left and the error retryable). */
  retrying?: boolean;
  /** Why the run was skipped. */
  reason?: string;
}

/** Which runs to read: one kind, one entity, or every stream of the connection. */
export interface RunFilter {
  kind?: RunKind;
  entity?: string;
}

const MESSAGE_MAX = 500;

/** The list a run goes to: pulls and backfill windows per entity, apart, so a long backfill does not push the incremental history out. */
export function runStream(kind: RunKind, entity?: string): string {
  return kind === 'reconcile' ? kind : `${kind}:${entity ?? 'unknown'}`;
}

/**
 * The last runs of each (connection, stream), for `erp-sync runs`: a Redis list per stream, newest first,
 * trimmed to `keep` entries in the same MULTI as the push, so no reader ever sees more and memory is
 * bounded by keep × streams × connections, however long the service runs.
 *
 * Measured with MEMORY USAGE (test/pipeline/run-history.test.ts, Redis 7.0): a full list of 50 takes about
 * 330 bytes per pull or backfill-window record (≈ 250 bytes of JSON) and 520 per reconcile record (its
 * counts name every drift kind). At the default of 50, a connection with three entities (six pull and
 * backfill streams, one reconcile stream) holds at most ≈ 125 KB.
 */
export class RunHistory {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
    /** Records kept per stream (`sync.runHistory`). */
    readonly keep: number,
  ) {}

  async record(run: RunRecord): Promise<void> {
    const key = this.keys.runs(run.connection, runStream(run.kind, run.entity));
    const stored: RunRecord =
      run.error && run.error.length > MESSAGE_MAX ? { ...run, error: run.error.slice(0, MESSAGE_MAX) } : run;
    await this.redis
      .multi()
      .lpush(key, JSON.stringify(stored))
      .ltrim(key, 0, this.keep - 1)
      .exec();
  }

  /**
   * The connection's last `limit` runs matching `filter`, newest (last ended) first. Reads every stream the
   * filter allows, including entities no longer in the connection's config (their history is still there).
   */
  async list(connection: string, filter: RunFilter = {}, limit = this.keep): Promise<RunRecord[]> {
    const streams = RUN_KINDS.filter((k) => !filter.kind || k === filter.kind).flatMap((kind) =>
      kind === 'reconcile'
        ? filter.entity
          ? []
          : [runStream(kind)]
        : ENTITY_NAMES.filter((e) => !filter.entity || e === filter.entity).map((e) => runStream(kind, e)),
    );
    if (!streams.length) return [];
    const pipeline = this.redis.pipeline();
    for (const s of streams) pipeline.lrange(this.keys.runs(connection, s), 0, limit - 1);
    const lists = (await pipeline.exec()) ?? [];
    const runs: RunRecord[] = [];
    for (const [err, items] of lists) {
      if (err) throw err;
      for (const json of items as string[]) runs.push(JSON.parse(json) as RunRecord);
    }
    return runs.sort((a, b) => b.endedAt - a.endedAt || b.startedAt - a.startedAt).slice(0, limit);
  }
}
