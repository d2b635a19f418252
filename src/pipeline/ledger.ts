import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';

/** What was written to billing for one source record. */
export interface LedgerEntry {
  /** Content hash of the billing body that was written. */
  hash: string;
  /** Source version (UTC ISO) of what was written. */
  version: string;
  /** Billing-side ids (invoiceId / creditNoteId / buyerId). */
  billingId: string;
  /** Document number as sent (invoice or credit-note number). */
  number?: string;
  /** Source status sent in metaData (void, paid, ...). */
  sourceStatus?: string;
  /** When billing acknowledged it (ms since epoch). */
  writtenAt: number;
  jobId?: string;
  /** Fields reconciliation compares (amounts as strings, exact). */
  fields?: Record<string, string | null>;
  /** The ERP document link attached as INVOICE_FOR_BUYER, once. */
  attachmentUrl?: string;
  /** Set when the source deleted the record (never for voids): reconciliation reports it. */
  sourceDeletedAt?: string;
}

// Write only if the stored version is not newer: an old job finishing late never rolls the ledger back.
const PUT_IF_NOT_OLDER = `
local cur = redis.call('hget', KEYS[1], ARGV[1])
if cur then
  local v = cjson.decode(cur).version
  if v and v > ARGV[2] then return 0 end
end
redis.call('hset', KEYS[1], ARGV[1], ARGV[3])
return 1`;

/**
 * The ledger: one Redis hash per (connection, entity), field = ERP id. It lets a pull skip unchanged
 * records, lets an upsert refuse an older version, and is reconciliation's expected side.
 * Versions are UTC ISO-8601 strings of equal format, so string order is time order.
 */
export class Ledger {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  async get(connection: string, entity: string, erpId: string): Promise<LedgerEntry | undefined> {
    const raw = await this.redis.hget(this.keys.ledger(connection, entity), erpId);
    return raw ? (JSON.parse(raw) as LedgerEntry) : undefined;
  }

  /** Entries for many ids in one round trip (a pull checks a whole page). */
  async getMany(connection: string, entity: string, erpIds: string[]): Promise<Array<LedgerEntry | undefined>> {
    if (erpIds.length === 0) return [];
    const raws = await this.redis.hmget(this.keys.ledger(connection, entity), ...erpIds);
    return raws.map((r) => (r ? (JSON.parse(r) as LedgerEntry) : undefined));
  }

  /** Returns false (and writes nothing) when the ledger already holds a newer version. */
  async put(connection: string, entity: string, erpId: string, entry: LedgerEntry): Promise<boolean> {
    const r = await this.redis.eval(PUT_IF_NOT_OLDER, 1, this.keys.ledger(connection, entity), erpId, entry.version, JSON.stringify(entry));
    return r === 1;
  }

  async remove(connection: string, entity: string, erpId: string): Promise<void> {
    await this.redis.hdel(this.keys.ledger(connection, entity), erpId);
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
      for (let i = 0; i < flat.length; i += 2) batch.push([flat[i]!, JSON.parse(flat[i + 1]!) as LedgerEntry]);
      if (batch.length) yield batch;
    } while (cursor !== '0');
  }
}
