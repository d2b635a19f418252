import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';
import { decodeLedgerEntry, encodeLedgerEntry } from './ledger-entry-codec.js';
import { LuaScript } from './lua-script.js';

import type { LedgerEntry } from './ledger-entry.js';

export type { LedgerEntry } from './ledger-entry.js';

/** The hash a repair request leaves on an entry: no content hashes to it, so the next pull enqueues the record. */
export const REPAIR_HASH = 'repair';

const PUT_IF_NOT_OLDER = LuaScript.load('put-if-not-older-1');
const MARK_SOURCE_DELETED = LuaScript.load('mark-source-deleted-1');
const REQUEST_REPAIR = LuaScript.load('request-repair-1');
const FORGET_WRITTEN = LuaScript.load('forget-written-1');
const CORRECT_VERSION = LuaScript.load('correct-version-1');

/**
 * The ledger: one Redis hash per (connection, entity), field = ERP id, value = the entry in the form of
 * ./ledger-entry-codec.ts (compact; entries written before it are read as they are). It lets a pull skip unchanged
 * records, lets an upsert refuse an older version, and is reconciliation's expected side.
 * Versions are UTC ISO-8601 strings of equal format, so string order is time order.
 *
 * Every write is one atomic script that works on the entry as it is at that moment, never on a copy the
 * caller read earlier: an upsert committing a newer version between a reader's read and its write is
 * never overwritten with the older entry.
 */
export class Ledger {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  async get(connection: string, entity: string, erpId: string): Promise<LedgerEntry | undefined> {
    const raw = await this.redis.hget(this.keys.ledger(connection, entity), erpId);
    return raw ? decodeLedgerEntry(erpId, raw) : undefined;
  }

  /** Entries for many ids in one round trip (a pull checks a whole page). */
  async getMany(connection: string, entity: string, erpIds: string[]): Promise<Array<LedgerEntry | undefined>> {
    if (erpIds.length === 0) return [];
    const raws = await this.redis.hmget(this.keys.ledger(connection, entity), ...erpIds);
    return raws.map((r, i) => (r ? decodeLedgerEntry(erpIds[i]!, r) : undefined));
  }

  /** Returns false (and writes nothing) when the ledger already holds a newer version. */
  async put(connection: string, entity: string, erpId: string, entry: LedgerEntry): Promise<boolean> {
    const r = await PUT_IF_NOT_OLDER.run(
      this.redis,
      [this.keys.ledger(connection, entity)],
      [erpId, entry.version, encodeLedgerEntry(erpId, entry)],
    );
    return r === 1;
  }

  /**
   * The source deleted the record (never a void): marks the entry (if any, and not already marked) for
   * reconciliation. `bumpVersion`: the delete is itself a source version (a pull read it), so the entry's
   * version moves up to it and an older upsert still queued cannot write over the delete.
   */
  async markSourceDeleted(
    connection: string,
    entity: string,
    erpId: string,
    deletedAt: string,
    options: { bumpVersion?: boolean } = {},
  ): Promise<boolean> {
    const r = await MARK_SOURCE_DELETED.run(
      this.redis,
      [this.keys.ledger(connection, entity)],
      [erpId, deletedAt, options.bumpVersion ? '1' : '0'],
    );
    return r === 1;
  }

  /**
   * Asks for these records to be written again: their content hash is forgotten, so the next pull
   * enqueues them even if the source did not change. Returns how many entries were marked.
   */
  async requestRepair(connection: string, entity: string, erpIds: readonly string[]): Promise<number> {
    let marked = 0;
    for (let i = 0; i < erpIds.length; i += 1000) {
      marked += (await REQUEST_REPAIR.run(
        this.redis,
        [this.keys.ledger(connection, entity)],
        [REPAIR_HASH, ...erpIds.slice(i, i + 1000)],
      )) as number;
    }
    return marked;
  }

  /**
   * The entry holds a version (or a delete) the source contradicts: read now, the source has the record
   * live at `sourceVersion`, older than `seenVersion`, the entry's version when the caller looked before
   * reading. Atomically, and only if the entry still holds `seenVersion`: its version becomes
   * `sourceVersion`, its delete mark goes and its hash is forgotten (the record is written again).
   */
  async correctVersion(
    connection: string,
    entity: string,
    erpId: string,
    seenVersion: string,
    sourceVersion: string,
  ): Promise<boolean> {
    const r = await CORRECT_VERSION.run(
      this.redis,
      [this.keys.ledger(connection, entity)],
      [erpId, seenVersion, sourceVersion, REPAIR_HASH],
    );
    return r === 1;
  }

  /**
   * The connection now writes to another billing company: every entry of (connection, entity) forgets
   * what was sent (hash, attached link, compared fields) and keeps what the source said, so each record is
   * written again to the new company by the next pull that reads it. Returns how many entries were rewritten.
   */
  async forgetWritten(connection: string, entity: string): Promise<number> {
    let n = 0;
    for await (const batch of this.scan(connection, entity, 1000)) {
      if (!batch.length) continue;
      n += (await FORGET_WRITTEN.run(
        this.redis,
        [this.keys.ledger(connection, entity)],
        [REPAIR_HASH, ...batch.map(([id]) => id)],
      )) as number;
    }
    return n;
  }

  /** True when a repair asked for this entry's record to be written again (its original job id is spent). */
  static repairRequested(entry: Pick<LedgerEntry, 'hash'> | undefined): boolean {
    return entry?.hash === REPAIR_HASH;
  }

  async remove(connection: string, entity: string, erpId: string): Promise<void> {
    await this.redis
      .multi()
      .hdel(this.keys.ledger(connection, entity), erpId)
      .zrem(this.keys.ledgerByDate(connection, entity), erpId)
      .exec();
  }

  async count(connection: string, entity: string): Promise<number> {
    return this.redis.hlen(this.keys.ledger(connection, entity));
  }

  /** Walks the ledger in batches (memory bounded by `count`, not by the ledger's size). */
  async *scan(connection: string, entity: string, count = 1000): AsyncGenerator<Array<[string, LedgerEntry]>> {
    let cursor = '0';
    do {
      const [next, flat] = await this.redis.hscan(this.keys.ledger(connection, entity), cursor, 'COUNT', count);
      cursor = next;
      const batch: Array<[string, LedgerEntry]> = [];
      for (let i = 0; i < flat.length; i += 2) batch.push([flat[i]!, decodeLedgerEntry(flat[i]!, flat[i + 1]!)]);
      if (batch.length) yield batch;
    } while (cursor !== '0');
  }
}
