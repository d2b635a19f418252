import type { Logger } from 'pino';
import { serializeError } from '../../src/observability/logger.js';
import type { Ledger, LedgerEntry } from '../../src/pipeline/ledger.js';
import {
  changedFields,
  HISTORY_HASH_CHARS,
  type HistoryEntry,
  type HistoryPath,
  type RecordHistory,
} from '../../src/pipeline/record-history.js';
import type { RecordSettlement, UpsertState } from '../../src/pipeline/upsert-state.js';
import { PRIORITY, type UpsertJobData } from '../catalog.js';
import { tellHistoryLater } from './tell-history-later.js';

/** What telling an upsert job's outcomes to the records' history uses. */
export interface UpsertHistoryHelpers {
  upsertState: Pick<UpsertState, 'settleMany'>;
  ledger: Pick<Ledger, 'getMany'>;
  /** Absent: no history is kept (a process built without it, some tests). */
  recordHistory?: Pick<RecordHistory, 'appendMany' | 'list'>;
}

/** The job whose records settle: its id and priority (a backfill's jobs run at PRIORITY.backfill or after). */
export interface SettlingJob {
  id?: string;
  opts: { priority?: number };
}

/**
 * The job's SETTLE (UpsertState.settleMany), followed by one history entry per record with an outcome
 * (written, unchanged, stale, held; a record only released has none). A write's entry names the compared fields
 * that changed since the previous write, read from the ledger just before SETTLE replaces it (the job
 * holds the records' locks, so no other write comes between): one more round trip per job, the append.
 * The history is told after SETTLE, once
 * the outcome is durable; a failure to tell it (Redis gone just after SETTLE) is logged with the records'
 * ids and told again in the background once Redis answers (tell-history-later.ts), never turned into a
 * failed job (the ledger, not the history, is what keeps a record from being lost or doubled).
 */
export function settlingWithHistory(
  rt: UpsertHistoryHelpers,
  job: SettlingJob,
  records: readonly UpsertJobData[],
  log: Logger,
): Pick<UpsertState, 'settleMany'> {
  const history = rt.recordHistory;
  if (!history) return rt.upsertState;
  const payloads = new Map<string, UpsertJobData>();
  for (const r of records) if (!payloads.has(r.erpId)) payloads.set(r.erpId, r);
  return {
    async settleMany(connection, entity, settled, owner, jobId) {
      // Writes (the fields they changed) and unchanged records (a write owed to the history, below).
      const read = settled.filter((r) => r.settlement.outcome === 'written' || r.settlement.outcome === 'unchanged');
      const ids = read.map((r) => r.erpId);
      // Sent together: on the one state connection the read reaches Redis before SETTLE, so it costs no
      // round trip of its own (and on a Cluster both go to the connection's node).
      const [before, result] = await Promise.all([
        ids.length ? rt.ledger.getMany(connection, entity, ids) : [],
        rt.upsertState.settleMany(connection, entity, settled, owner, jobId),
      ]);
      const previous = new Map(ids.map((id, i) => [id, before[i]]));
      const at = Date.now();
      const entries = settled.flatMap(({ erpId, settlement }) => {
        const entry = settledEntry(settlement, payloads.get(erpId), previous.get(erpId), {
          at,
          by: jobId,
          path: pathOf(payloads.get(erpId), job),
        });
        return entry ? [{ erpId, entry }] : [];
      });
      const pathFor = (erpId: string) => pathOf(payloads.get(erpId), job);
      entries.unshift(...(await owedWrites(history, { connection, entity, jobId, pathFor }, settled, previous, log)));
      const tell = () => history.appendMany(connection, entity, entries);
      try {
        await tell();
      } catch (err) {
        const about = { connection, entity, erpIds: entries.map((e) => e.erpId) };
        log.warn(
          { err: serializeError(err), ...about },
          "the records' outcomes are settled but their history could not be told; told again once Redis answers",
        );
        void tellHistoryLater(tell, about, log);
      }
      return result;
    },
  };
}

/**
 * Writes an earlier run of this very job made and could not tell the history: the job's SETTLE reached
 * Redis, then Redis went away (or the worker stopped) before the append, and the job, never completed, runs
 * again and finds its own write in the ledger (`unchanged`, the ledger entry naming this job). The write
 * is told now, at the time and version the ledger holds, unless the history already has it.
 */
async function owedWrites(
  history: Pick<RecordHistory, 'list'>,
  at: { connection: string; entity: string; jobId: string; pathFor: (erpId: string) => HistoryPath },
  settled: ReadonlyArray<{ erpId: string; settlement: RecordSettlement }>,
  previous: Map<string, LedgerEntry | undefined>,
  log: Logger,
): Promise<Array<{ erpId: string; entry: HistoryEntry }>> {
  const owed: Array<{ erpId: string; entry: HistoryEntry }> = [];
  for (const { erpId, settlement } of settled) {
    const mine = previous.get(erpId);
    if (settlement.outcome !== 'unchanged' || mine?.jobId !== at.jobId) continue;
    try {
      const told = await history.list(at.connection, at.entity, erpId);
      if (told.some((e) => e.outcome === 'written' && e.by === at.jobId)) continue;
    } catch (err) {
      log.warn({ err: serializeError(err), erpId }, 'could not read the history to tell an earlier run’s write');
      continue;
    }
    const entry = settledEntry({ outcome: 'written', entry: mine }, undefined, undefined, {
      at: mine.writtenAt,
      by: at.jobId,
      path: at.pathFor(erpId),
    })!;
    owed.push({ erpId, entry });
  }
  return owed;
}

/** How a record came: its payload says (a replay, a repair, a webhook); else a pull's, by the job's priority. */
export function pathOf(payload: Pick<UpsertJobData, 'path'> | undefined, job: SettlingJob): HistoryPath {
  if (payload?.path) return payload.path;
  return (job.opts.priority ?? 0) >= PRIORITY.backfill ? 'backfill' : 'poll';
}

/** A settlement as a history entry; undefined for a record only released (no outcome in this job), or held again as it was. */
export function settledEntry(
  s: RecordSettlement,
  payload: Pick<UpsertJobData, 'version' | 'hash'> | undefined,
  previous: LedgerEntry | undefined,
  common: { at: number; by: string; path: HistoryPath },
): HistoryEntry | undefined {
  const hash = (s.outcome === 'written' ? s.entry.hash : payload?.hash)?.slice(0, HISTORY_HASH_CHARS);
  const base = { at: common.at, by: common.by, path: common.path, ...(hash ? { hash } : {}) };
  if (s.outcome === 'written') {
    const changed = changedFields(previous?.fields, s.entry.fields);
    return {
      ...base,
      outcome: 'written',
      version: s.entry.version,
      billingId: s.entry.billingId,
      ...(changed ? { changed } : {}),
    };
  }
  if (s.outcome === 'unchanged') return { ...base, outcome: 'unchanged', version: s.version };
  if (s.outcome === 'held')
    return s.again ? undefined : { ...base, outcome: 'held', version: s.version, reason: s.rule };
  if (s.outcome === 'stale') return { ...base, outcome: 'stale', ...(payload ? { version: payload.version } : {}) };
  return undefined;
}

/** A record handed to the upsert queue again by a person's replay or a repair, as its history entry. */
export function requeuedEntry(outcome: 'replayed' | 'repaired') {
  return (job: {
    data: Pick<UpsertJobData, 'erpId' | 'version' | 'hash' | 'path'>;
    opts: { jobId: string };
  }): { erpId: string; entry: HistoryEntry } => ({
    erpId: job.data.erpId,
    entry: {
      outcome,
      at: Date.now(),
      version: job.data.version,
      hash: job.data.hash.slice(0, HISTORY_HASH_CHARS),
      path: job.data.path ?? (outcome === 'replayed' ? 'replay' : 'repair'),
      by: job.opts.jobId,
    },
  });
}
