import type { HistoryEntry, HistoryOutcome, RecordHistory } from '../src/pipeline/record-history.js';

/** A history entry as it is printed (`explain --json`, `history --json`): its instant as ISO, absent slots left out. */
export type PrintedHistoryEntry = Omit<HistoryEntry, 'at'> & { at: string };

export function printedHistoryEntry(e: HistoryEntry): PrintedHistoryEntry {
  const { at, ...rest } = e;
  return { at: new Date(at).toISOString(), ...rest };
}

/** One outcome of one record in the period. */
export type HistoryWrite = PrintedHistoryEntry & { entity: string; erpId: string };

export interface ListHistoryRequest {
  connection: string;
  /** From this instant (inclusive) … */
  since: Date;
  /** … to this one (exclusive); default now. */
  until?: Date;
  entity?: string;
  /** Which outcomes; default `written` (what reached billing). */
  outcomes?: readonly HistoryOutcome[];
}

export interface ListHistoryResult {
  connection: string;
  since: string;
  until: string;
  /** The oldest instant history is kept for (`history.days`): nothing before it can be listed. */
  keptSince: string;
  /** Records with at least one listed entry. */
  records: number;
  /** Oldest first (then by entity and ERP id). */
  entries: HistoryWrite[];
}

const DAY_MS = 86_400_000;

/**
 * What the sync did for a connection in a period, for an auditor: by default every write to billing,
 * with its source version, content hash, billing id, job, path and the fields that changed. Read from
 * each record's history (src/pipeline/record-history.ts), so it covers the last `history.days` days and,
 * per record, its last `history.perRecord` outcomes. An unknown connection throws (ConfigError: exit 2).
 */
export async function listHistory(
  rt: { connection(id: string): unknown; recordHistory: Pick<RecordHistory, 'scan' | 'options'> },
  request: ListHistoryRequest,
): Promise<ListHistoryResult> {
  rt.connection(request.connection);
  const since = request.since.getTime();
  const until = (request.until ?? new Date()).getTime();
  const outcomes = new Set<HistoryOutcome>(request.outcomes ?? ['written']);
  const entries: Array<HistoryWrite & { ms: number }> = [];
  const records = new Set<string>();
  for await (const batch of rt.recordHistory.scan(request.connection)) {
    for (const r of batch) {
      if (request.entity && r.entity !== request.entity) continue;
      for (const e of r.entries) {
        if (e.at < since || e.at >= until || !outcomes.has(e.outcome)) continue;
        entries.push({ entity: r.entity, erpId: r.erpId, ...printedHistoryEntry(e), ms: e.at });
        records.add(`${r.entity}|${r.erpId}`);
      }
    }
  }
  entries.sort((a, b) => a.ms - b.ms || cmp(a.entity, b.entity) || cmp(a.erpId, b.erpId));
  return {
    connection: request.connection,
    since: new Date(since).toISOString(),
    until: new Date(until).toISOString(),
    keptSince: new Date(Date.now() - rt.recordHistory.options.days * DAY_MS).toISOString(),
    records: records.size,
    entries: entries.map(({ ms: _ms, ...e }) => e),
  };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
