import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';
import { LuaScript } from './lua-script.js';
import { Quarantine } from './quarantine.js';

/** A record held before write: what would be sent, and why it waits. */
export interface ReviewEntry {
  connection: string;
  entity: string;
  erpId: string;
  /** The source version held: a newer one replaces it, an older one never does. */
  version: string;
  hash: string;
  /** The rule that held it (jobs/upsert/review-rule.ts). */
  rule: string;
  /** `held`: waits for a person; `rejected`: a person said no, until the source changes the record again (another version or content). */
  state: 'held' | 'rejected';
  /** When this version was held (epoch ms). */
  since: number;
  /** The upsert payload that would be sent (the mapped billing body; no secrets). */
  payload: unknown;
  /** A rejection: who, when, and their note. */
  by?: string;
  at?: number;
  note?: string;
}

/** What holding a record did: held now, already held (`kept`), kept rejected, or left a newer version in place. */
export type HoldResult = 'held' | 'kept' | 'rejected' | 'newer';

const HOLD = LuaScript.load('hold-for-review-2');
const SETTLE = LuaScript.load('settle-review-2');
// Clear only if the entry is not newer than the version just written (as the quarantine's).
const CLEAR = LuaScript.load('clear-review-2');

/**
 * Records held for a person's review before they are written to billing (`connections[].review`), one
 * Redis hash per connection (field `entity|erpId`, as the quarantine's). Neither quarantine nor drift: a
 * held record is settled by its upsert (not in flight) and waits here until approved (handed to the
 * upsert queue again, marked approved) or rejected (kept, rejected, until a newer source version).
 */
export class ReviewQueue {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  /** Holds a version (see lua/hold-for-review-2.lua for what an entry already there does). */
  async hold(e: Omit<ReviewEntry, 'state'>): Promise<HoldResult> {
    const entry: ReviewEntry = { ...e, state: 'held' };
    return (await HOLD.run(this.redis, this.pair(e.connection), [
      Quarantine.field(e.entity, e.erpId),
      e.version,
      e.hash,
      JSON.stringify(entry),
      e.rule,
    ])) as HoldResult;
  }

  async get(connection: string, entity: string, erpId: string): Promise<ReviewEntry | undefined> {
    const raw = await this.redis.hget(this.keys.review(connection), Quarantine.field(entity, erpId));
    return raw ? (JSON.parse(raw) as ReviewEntry) : undefined;
  }

  /** Every entry of the connection, held and rejected, oldest first. */
  async list(connection: string): Promise<ReviewEntry[]> {
    const h = await this.redis.hgetall(this.keys.review(connection));
    return Object.values(h)
      .map((v) => JSON.parse(v) as ReviewEntry)
      .sort((a, b) => a.since - b.since || a.erpId.localeCompare(b.erpId));
  }

  /** Held records (not rejected ones) by the rule that held them, from the index (the bodies are not read). */
  async countByRule(connection: string): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const v of await this.redis.hvals(this.keys.reviewIndex(connection))) {
      const [state, rule] = v.split('|') as [string, string];
      if (state === 'held') out[rule] = (out[rule] ?? 0) + 1;
    }
    return out;
  }

  /** Rejects the version a person saw; false when it is gone or a newer version replaced it. */
  async reject(e: ReviewEntry, decision: { by: string; note: string; at?: number }): Promise<boolean> {
    const rejected: ReviewEntry = {
      ...e,
      state: 'rejected',
      by: decision.by,
      note: decision.note,
      at: decision.at ?? Date.now(),
    };
    return this.settle(e, JSON.stringify(rejected));
  }

  /** Removes the version a person approved (its upsert job is enqueued first); false when a newer version replaced it. */
  async release(e: Pick<ReviewEntry, 'connection' | 'entity' | 'erpId' | 'version' | 'hash'>): Promise<boolean> {
    return this.settle(e, '');
  }

  /** An approved version written to billing: its entry goes, unless a newer version is held since. */
  async clear(connection: string, entity: string, erpId: string, version: string): Promise<boolean> {
    const r = await CLEAR.run(this.redis, this.pair(connection), [Quarantine.field(entity, erpId), version]);
    return r === 1;
  }

  /**
   * `first-sync`: whether the connection's first sync still waits for approval. A connection whose ledger
   * already holds records was synced before review was configured: its first sync is marked done.
   */
  async firstSyncOpen(connection: string, entities: readonly string[]): Promise<boolean> {
    const marker = this.keys.reviewFirstSync(connection);
    if ((await this.redis.exists(marker)) === 1) return false;
    const sizes = await Promise.all(entities.map((e) => this.redis.hlen(this.keys.ledger(connection, e))));
    if (sizes.every((n) => n === 0)) return true;
    await this.redis.set(marker, JSON.stringify({ existing: true, at: Date.now() }), 'NX');
    return false;
  }

  /** Marks the connection's first sync approved: its records are written without review from now on. */
  async closeFirstSync(connection: string, by: string): Promise<void> {
    await this.redis.set(this.keys.reviewFirstSync(connection), JSON.stringify({ by, at: Date.now() }), 'NX');
  }

  private async settle(
    e: Pick<ReviewEntry, 'connection' | 'entity' | 'erpId' | 'version' | 'hash'>,
    json: string,
  ): Promise<boolean> {
    const done = await SETTLE.run(this.redis, this.pair(e.connection), [
      Quarantine.field(e.entity, e.erpId),
      e.version,
      e.hash,
      json,
    ]);
    return done === 1;
  }

  /** The connection's entries and their index: one slot on a Cluster (the connection's hash tag). */
  private pair(connection: string): string[] {
    return [this.keys.review(connection), this.keys.reviewIndex(connection)];
  }
}
