import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';
import { Quarantine, type QuarantineEntry } from './quarantine.js';
import {
  HISTORY_HASH_CHARS,
  HISTORY_PATHS,
  type HistoryEntry,
  type HistoryPath,
  type RecordHistory,
} from './record-history.js';

/**
 * The quarantine, telling each record's history as it quarantines it (with the reason): every site that
 * quarantines (a mapper's refusal in a pull, billing's refusal, a job that failed or stalled, the sweep,
 * a draft set aside) goes through `put`, so the history misses none of them.
 */
export class QuarantineWithHistory extends Quarantine {
  constructor(
    redis: Redis,
    keys: StateKeys,
    private readonly history: Pick<RecordHistory, 'append'>,
  ) {
    super(redis, keys);
  }

  override async put(e: QuarantineEntry): Promise<boolean> {
    const put = await super.put(e);
    // Told even when a newer version's entry stays in place: this version was quarantined all the same.
    await this.history.append(e.connection, e.entity, e.erpId, quarantinedEntry(e));
    return put;
  }
}

/** A quarantine entry as a history entry: its version, reason, and (an upsert's) content hash and path. */
export function quarantinedEntry(e: QuarantineEntry): HistoryEntry {
  const payload = (typeof e.payload === 'object' && e.payload !== null ? e.payload : {}) as {
    hash?: unknown;
    path?: unknown;
  };
  const path = (HISTORY_PATHS as readonly unknown[]).includes(payload.path) ? (payload.path as HistoryPath) : undefined;
  return {
    outcome: 'quarantined',
    at: e.at,
    version: e.version || undefined,
    reason: e.reason || undefined,
    ...(typeof payload.hash === 'string' && payload.hash ? { hash: payload.hash.slice(0, HISTORY_HASH_CHARS) } : {}),
    ...(path ? { path } : {}),
  };
}
