import type { Redis } from 'ioredis';
import { scanKeys } from '../redis.js';
import type { StateKeys } from './keys.js';
import { LuaScript } from './lua-script.js';
import { decodeHistoryEntry, encodeHistoryEntry, type HistoryEntry } from './record-history-codec.js';

export type { HistoryEntry, HistoryOutcome, HistoryPath } from './record-history-codec.js';
export { HISTORY_HASH_CHARS, HISTORY_OUTCOMES, HISTORY_PATHS } from './record-history-codec.js';

const APPEND = LuaScript.load('append-history-n');
const DAY_MS = 86_400_000;
/** Records per APPEND: one script call stays short however many records a job settles. */
const APPEND_CHUNK = 500;

/** `history` of the config: how much of each record's history is kept. */
export interface RecordHistoryOptions {
  /** The last N outcomes of a record. */
  perRecord: number;
  /** None older than this many days. */
  days: number;
}

/** One record's history, oldest first. */
export interface RecordHistoryOf {
  entity: string;
  erpId: string;
  entries: HistoryEntry[];
}

/**
 * What happened to each record, for an auditor: every outcome (written, unchanged, stale, quarantined,
 * replayed, repaired, …) appended to the record's own Redis list, in the compact form of
 * ./record-history-codec.ts. Bounded where it is written (one Lua script per call): the last
 * `perRecord` entries, none older than `days`, and the key expires `days` after its last entry, so a
 * record never seen again falls away without a sweep. A reader also leaves out entries past `days`
 * (the clock moved on since the last append).
 *
 * History is what the pipeline tells it after the fact: the ledger stays the truth about what billing
 * holds; this says how it came to hold it.
 */
export class RecordHistory {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
    readonly options: RecordHistoryOptions,
    /** The clock (ms); tests move it. */
    private readonly now: () => number = Date.now,
  ) {}

  async append(connection: string, entity: string, erpId: string, entry: HistoryEntry): Promise<void> {
    await this.appendMany(connection, entity, [{ erpId, entry }]);
  }

  /** One entry per record, of one connection and entity, in one round trip per 500 records. */
  async appendMany(
    connection: string,
    entity: string,
    items: ReadonlyArray<{ erpId: string; entry: HistoryEntry }>,
  ): Promise<void> {
    const ttlMs = this.options.days * DAY_MS;
    for (let i = 0; i < items.length; i += APPEND_CHUNK) {
      const chunk = items.slice(i, i + APPEND_CHUNK);
      await APPEND.run(
        this.redis,
        chunk.map((it) => this.keys.recordHistory(connection, entity, it.erpId)),
        [
          this.options.perRecord,
          ttlMs,
          this.now() - ttlMs,
          ...chunk.map((it) => encodeHistoryEntry({ connection, erpId: it.erpId }, it.entry)),
        ],
      );
    }
  }

  /** The record's history, oldest first, none older than `days`. */
  async list(connection: string, entity: string, erpId: string): Promise<HistoryEntry[]> {
    const stored = await this.redis.lrange(this.keys.recordHistory(connection, entity, erpId), 0, -1);
    return this.decode(connection, erpId, stored);
  }

  /**
   * Every record of the connection that has a history, in batches (SCAN over its keys, every master of
   * a Cluster): what an auditor's listing of a period reads. Order between records is Redis's.
   */
  async *scan(connection: string, count = 500): AsyncGenerator<RecordHistoryOf[]> {
    // The part of a key before `<entity>:<erpId>` (the builder given empty ids ends in `::`).
    const head = this.keys.recordHistory(connection, '', '').slice(0, -1);
    const pattern = `${globEscape(head)}*`;
    for await (const keys of scanKeys(this.redis, pattern, { count })) {
      const pipeline = this.redis.pipeline();
      for (const k of keys) pipeline.lrange(k, 0, -1);
      const lists = (await pipeline.exec()) ?? [];
      const batch: RecordHistoryOf[] = [];
      keys.forEach((key, i) => {
        const [err, stored] = lists[i]!;
        if (err) throw err;
        const rest = key.slice(head.length);
        const cut = rest.indexOf(':');
        const entity = rest.slice(0, cut);
        const erpId = rest.slice(cut + 1);
        batch.push({ entity, erpId, entries: this.decode(connection, erpId, stored as string[]) });
      });
      if (batch.length) yield batch;
    }
  }

  private decode(connection: string, erpId: string, stored: readonly string[]): HistoryEntry[] {
    const oldest = this.now() - this.options.days * DAY_MS;
    return stored.map((s) => decodeHistoryEntry({ connection, erpId }, s)).filter((e) => e.at >= oldest);
  }
}

/** A key part matched literally by SCAN's MATCH (a Cluster's `{tag}` braces are literal already). */
function globEscape(s: string): string {
  return s.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/**
 * The compared fields (`fields` of an upsert payload, jobs/reconcile-fields.ts) whose values differ
 * between two writes: names only, never values (the ledger keeps only the latest values). Names of the
 * new write in its order, then those it no longer has. Undefined when there is no previous write to
 * compare with.
 */
export function changedFields(
  previous: Readonly<Record<string, string | null>> | undefined,
  next: Readonly<Record<string, string | null>> | undefined,
): string[] | undefined {
  if (!previous) return undefined;
  const now = next ?? {};
  const changed = Object.keys(now).filter((name) => !Object.hasOwn(previous, name) || previous[name] !== now[name]);
  for (const name of Object.keys(previous)) if (!Object.hasOwn(now, name)) changed.push(name);
  return changed;
}
