import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';
import type { Ledger, LedgerEntry } from './ledger.js';
import { LuaScript } from './lua-script.js';

const DAY_MS = 86_400_000;
/** The score of an entry with no document date: below every real day, so no date range holds it. */
export const UNDATED = -100_000_000;

const INDEX_DATES = LuaScript.load('index-dates-2');

/** Days since 1970-01-01 of a YYYY-MM-DD date (the index's score). */
export function dayOf(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

/** YYYY-MM-DD of an index score. */
export function dateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The index score of a ledger entry: its document (invoice) date's day, UNDATED when it has none, and
 * undefined for entities reconciliation does not list by date (no compared fields: customers, credit notes).
 */
export function dayScoreOf(entry: Pick<LedgerEntry, 'fields'>): number | undefined {
  if (!entry.fields) return undefined;
  const date = entry.fields.invoiceDate;
  return date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? dayOf(date) : UNDATED;
}

/**
 * The ledger's document-date index: per (connection, entity) a sorted set, member the ERP id, score the
 * day of the document's date. It is written by the upsert's commit script together with the ledger entry
 * (one atomic step), so counting what the ledger holds for a range of invoice dates is one ZCOUNT, and
 * the ids of a range are a ZRANGEBYSCORE, never a scan of the whole ledger. Cost: one member per record,
 * about the ERP id plus ~60 bytes of sorted-set overhead (measured in docs/benchmarks.md).
 */
export class LedgerDateIndex {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  /** How many entries have a document date in [fromDay, toDay] (inclusive). */
  async count(connection: string, entity: string, fromDay: number, toDay: number): Promise<number> {
    return this.redis.zcount(this.keys.ledgerByDate(connection, entity), fromDay, toDay);
  }

  /** The ERP ids with a document date in [fromDay, toDay], in batches (memory bounded by `batch`). */
  async *ids(
    connection: string,
    entity: string,
    fromDay: number,
    toDay: number,
    batch = 1000,
  ): AsyncGenerator<string[]> {
    const key = this.keys.ledgerByDate(connection, entity);
    for (let offset = 0; ; offset += batch) {
      const ids = await this.redis.zrangebyscore(key, fromDay, toDay, 'LIMIT', offset, batch);
      if (ids.length) yield ids;
      if (ids.length < batch) return;
    }
  }

  /** The first and last dated day the index holds, or undefined when it holds no dated entry. */
  async span(connection: string, entity: string): Promise<{ from: number; to: number } | undefined> {
    const key = this.keys.ledgerByDate(connection, entity);
    const first = await this.redis.zrangebyscore(key, UNDATED + 1, '+inf', 'WITHSCORES', 'LIMIT', 0, 1);
    if (first.length < 2) return undefined;
    const last = await this.redis.zrevrangebyscore(key, '+inf', UNDATED + 1, 'WITHSCORES', 'LIMIT', 0, 1);
    return { from: Number(first[1]), to: Number(last[1]) };
  }

  /**
   * Indexes what the ledger holds and the index does not (a ledger written before the index existed,
   * or seeded directly): a scan of the ledger, run only when the index holds fewer members than the
   * ledger has entries. Returns how many members were added.
   */
  async ensure(ledger: Pick<Ledger, 'scan' | 'count'>, connection: string, entity: string): Promise<number> {
    const key = this.keys.ledgerByDate(connection, entity);
    if ((await this.redis.zcard(key)) >= (await ledger.count(connection, entity))) return 0;
    let added = 0;
    for await (const batch of ledger.scan(connection, entity, 1000)) {
      const args: Array<string | number> = [];
      for (const [id, e] of batch) {
        const score = dayScoreOf(e);
        if (score !== undefined) args.push(id, score);
      }
      if (args.length)
        added += (await INDEX_DATES.run(this.redis, [this.keys.ledger(connection, entity), key], args)) as number;
    }
    return added;
  }
}
