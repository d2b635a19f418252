import type { Redis } from 'ioredis';
import { ENTITY_NAMES } from '../connector/entities.js';
import { scanKeys } from '../redis.js';
import type { StateKeys } from './keys.js';
import { LuaScript } from './lua-script.js';
import {
  decodeHistoryEntry,
  encodeHistoryEntry,
  HISTORY_ENTRY_SEPARATOR,
  type HistoryEntry,
} from './record-history-codec.js';

export type { HistoryEntry, HistoryOutcome, HistoryPath } from './record-history-codec.js';
export { HISTORY_HASH_CHARS, HISTORY_OUTCOMES, HISTORY_PATHS } from './record-history-codec.js';

const APPEND = LuaScript.load('append-history-bucket-n');
const READ = LuaScript.load('read-history-2');
const PRUNE = LuaScript.load('prune-history-1');
const DAY_MS = 86_400_000;
/** Records per APPEND: one script call stays short however many records a job settles. */
const APPEND_CHUNK = 500;
/**
 * Buckets per connection and entity. Fixed: a record's bucket is a hash of its ERP id modulo this, so
 * another number would lose every history written. 1,024 keeps a bucket's key overhead under 2 bytes a
 * record at 100,000 records, and a bucket at 1,000,000 records near 1,000 records (the append finds a
 * record with LPOS, in Redis's C, over its bucket).
 */
export const HISTORY_BUCKETS = 1024;
/** Buckets of each entity the sweep prunes per run: all of them every 32 runs (32 minutes at the default sweep). */
export const HISTORY_PRUNE_SLICE = 32;

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

/** What one prune did: the buckets it looked at (of each entity), the entries and records it dropped. */
export interface HistoryPruned {
  buckets: number;
  entries: number;
  records: number;
}

/**
 * What happened to each record, for an auditor: every outcome (written, unchanged, stale, quarantined,
 * replayed, repaired, …) in the compact form of ./record-history-codec.ts. The histories of one
 * connection and entity share HISTORY_BUCKETS Redis lists (the bucket is a hash of the ERP id), each a
 * run of pairs: a record's ERP id, then its entries joined by HISTORY_ENTRY_SEPARATOR, so a key's own cost
 * is shared by a hundred records (a list per record cost 190 bytes more a record: docs/benchmarks.md,
 * "Record history"). Lists, not hashes: a hash is only packed while every value is at most 64 bytes
 * (`hash-max-listpack-value`), and one entry is about 65; a list's packed nodes take values of any length.
 *
 * Bounded where it is written (one Lua script per call): the last `perRecord` entries of the record,
 * none older than `days`, and the bucket expires `days` after its last append. A record of a bucket still
 * in use but not itself touched again is trimmed by the sweep's prune (a slice of buckets a run); a
 * reader also leaves out entries past `days` (the clock moved on since).
 *
 * Histories an earlier release kept in a list per record (`history:<connection>:<entity>:<erp id>`) are
 * read too, before the record's newer entries, until they expire on their own (`days` after their last
 * outcome): nothing is written to them any more.
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
        chunk.map((it) => this.bucketKey(connection, entity, it.erpId)),
        [
          this.options.perRecord,
          ttlMs,
          this.now() - ttlMs,
          ...chunk.flatMap((it) => [it.erpId, encodeHistoryEntry({ connection, erpId: it.erpId }, it.entry)]),
        ],
      );
    }
  }

  /** The record's history, oldest first, none older than `days`. */
  async list(connection: string, entity: string, erpId: string): Promise<HistoryEntry[]> {
    const [joined, earlier] = (await READ.run(
      this.redis,
      [this.bucketKey(connection, entity, erpId), this.keys.recordHistory(connection, entity, erpId)],
      [erpId],
    )) as [string, string[]];
    const stored = [...earlier, ...splitJoined(joined)].slice(-this.options.perRecord);
    return this.decode(connection, erpId, stored);
  }

  /**
   * Every record of the connection that has a history, in batches (SCAN over its keys, every master of
   * a Cluster): what an auditor's listing of a period reads. Order between records is Redis's; each
   * record comes once.
   */
  async *scan(connection: string, count = 500): AsyncGenerator<RecordHistoryOf[]> {
    const earlier = new Set<string>();
    for await (const batch of this.scanEarlier(connection, count)) {
      for (const r of batch) earlier.add(`${r.entity}:${r.erpId}`);
      yield batch;
    }
    // The part of a bucket's key before `<entity>:<bucket>` (the builder given '' and 0 ends in `::0`).
    const head = this.keys.recordHistoryBucket(connection, '', 0).slice(0, -2);
    for await (const keys of scanKeys(this.redis, `${globEscape(head)}*`, { count })) {
      const pipeline = this.redis.pipeline();
      for (const k of keys) pipeline.lrange(k, 0, -1);
      const lists = (await pipeline.exec()) ?? [];
      let batch: RecordHistoryOf[] = [];
      for (const [i, key] of keys.entries()) {
        const [err, items] = lists[i]!;
        if (err) throw err;
        const entity = key.slice(head.length, key.lastIndexOf(':'));
        for (const [erpId, joined] of pairs(items as string[])) {
          if (earlier.has(`${entity}:${erpId}`)) continue;
          batch.push({ entity, erpId, entries: this.decode(connection, erpId, splitJoined(joined)) });
        }
        if (batch.length >= count) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length) yield batch;
    }
  }

  /**
   * Drops the entries older than `days` from the next HISTORY_PRUNE_SLICE buckets of each entity of the
   * connection, and the records left with none (the sweep runs it): the records the append no longer
   * touches. Where it stopped is kept in Redis; the next call goes on from there, round the buckets.
   */
  async prune(connection: string): Promise<HistoryPruned> {
    const cursorKey = this.keys.recordHistoryPrune(connection);
    const from = (Number(await this.redis.get(cursorKey)) || 0) % HISTORY_BUCKETS;
    const buckets = Array.from({ length: HISTORY_PRUNE_SLICE }, (_, i) => (from + i) % HISTORY_BUCKETS);
    const ttlMs = this.options.days * DAY_MS;
    const pruned: HistoryPruned = { buckets: buckets.length, entries: 0, records: 0 };
    // A script per bucket: Redis is never held longer than one bucket takes (the calls still go out together).
    const keys = ENTITY_NAMES.flatMap((entity) =>
      buckets.map((b) => this.keys.recordHistoryBucket(connection, entity, b)),
    );
    const cutoff = this.now() - ttlMs;
    const counts = await Promise.all(keys.map((key) => PRUNE.run(this.redis, [key], [cutoff]) as Promise<number[]>));
    for (const [entries, records] of counts) {
      pruned.entries += entries!;
      pruned.records += records!;
    }
    await this.redis.set(cursorKey, (from + buckets.length) % HISTORY_BUCKETS, 'PX', ttlMs);
    return pruned;
  }

  /** Histories in the lists of an earlier release (a key per record), each with its entries since. */
  private async *scanEarlier(connection: string, count: number): AsyncGenerator<RecordHistoryOf[]> {
    // The part of a key before `<entity>:<erpId>` (the builder given empty ids ends in `::`).
    const head = this.keys.recordHistory(connection, '', '').slice(0, -1);
    for await (const keys of scanKeys(this.redis, `${globEscape(head)}*`, { count })) {
      const batch = await Promise.all(
        keys.map(async (key) => {
          const rest = key.slice(head.length);
          const cut = rest.indexOf(':');
          const entity = rest.slice(0, cut);
          const erpId = rest.slice(cut + 1);
          return { entity, erpId, entries: await this.list(connection, entity, erpId) };
        }),
      );
      if (batch.length) yield batch;
    }
  }

  private bucketKey(connection: string, entity: string, erpId: string): string {
    return this.keys.recordHistoryBucket(connection, entity, historyBucketOf(erpId));
  }

  private decode(connection: string, erpId: string, stored: readonly string[]): HistoryEntry[] {
    const oldest = this.now() - this.options.days * DAY_MS;
    return stored.map((s) => decodeHistoryEntry({ connection, erpId }, s)).filter((e) => e.at >= oldest);
  }
}

/** The bucket of a record: FNV-1a (32 bits) of its ERP id, modulo HISTORY_BUCKETS. Never changed. */
export function historyBucketOf(erpId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < erpId.length; i++) h = Math.imul(h ^ erpId.charCodeAt(i), 0x01000193) >>> 0;
  return h % HISTORY_BUCKETS;
}

/** A record's entries as its bucket holds them (none: ''). */
function splitJoined(joined: string): string[] {
  return joined ? joined.split(HISTORY_ENTRY_SEPARATOR) : [];
}

/** A bucket's items as (ERP id, joined entries) pairs. */
function* pairs(items: readonly string[]): Generator<[string, string]> {
  for (let i = 0; i + 1 < items.length; i += 2) yield [items[i]!, items[i + 1]!];
}

/** A key part matched literally by SCAN's MATCH (a Cluster's `{tag}` braces are literal already). */
function globEscape(s: string): string {
  return s.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/**
 * The compared fields (`fields` of an upsert payload, jobs/pull/reconcile-fields.ts) whose values differ
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
