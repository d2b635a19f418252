import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';
import type { LedgerEntry } from './ledger.js';
import { decodeLedgerEntry, encodeLedgerEntry } from './ledger-entry-codec.js';
import { LuaScript } from './lua-script.js';
import { Quarantine } from './quarantine.js';
import { dayScoreOf } from './ledger-date-index.js';

/*
 * An upsert job's Redis work in two round trips however many records it carries (measured in
 * bench/pipeline.bench.ts), each one atomic script over the job's records:
 * - BEGIN takes each record's lock, reads its ledger entry and whether its buyer is already ensured;
 * - SETTLE, once the records have their outcomes, writes the ledger entries of those written (same rule
 *   as Ledger.put, with their document-date index entries), clears their quarantine entries (same rule as
 *   Quarantine.clear), settles their in-flight entries (InFlight.settle) and releases every lock.
 * A job whose records take long (billing slow, retried) keeps the locks it has not settled yet with
 * EXTEND, so no other version of a record can be written while it holds its own.
 */
const BEGIN = LuaScript.load('begin-upserts-n');
const SETTLE = LuaScript.load('settle-upserts-n');
const EXTEND = LuaScript.load('extend-locks-n');
const RELEASE = LuaScript.load('release-lock-1');

export interface UpsertBegin {
  /** undefined = another job holds this record's lock. */
  lock?: { owner: string; release(): Promise<void> };
  current?: LedgerEntry;
  customerEnsured: boolean;
}

/** A record the job took the lock of, as BEGIN found it. */
export interface RecordBegun {
  /** False: another job holds this record's lock (nothing else was read). */
  locked: boolean;
  current?: LedgerEntry;
  customerEnsured: boolean;
}

/** What a record's lock is released with, by the record's outcome in this job. */
export type RecordSettlement =
  /** Written to billing: its ledger entry (never over a newer version). */
  | { outcome: 'written'; entry: LedgerEntry }
  /** Billing already holds this content (version = the record's source version). */
  | { outcome: 'unchanged'; version: string }
  /** The ledger holds a newer version. */
  | { outcome: 'stale' }
  /** Held for review before write (src/pipeline/review-queue.ts): not written, no longer in flight. */
  | {
      outcome: 'held';
      version: string;
      rule: string;
      /** Held already (or rejected): no new history entry. */ again?: boolean;
    }
  /** No outcome in this job (set aside, left its batch, quarantined, failed): the lock is released, nothing else. */
  | { outcome: 'released' };

const OUTCOME_CODE = { written: 'w', unchanged: 'u', stale: 's', held: 'h', released: 'r' } as const satisfies Record<
  RecordSettlement['outcome'],
  string
>;

/** One upsert job's state transitions, each a single atomic script over the job's records. */
export class UpsertState {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  /**
   * `owner`: the job's id. A worker killed mid-job cannot release its record locks; when BullMQ hands
   * the stalled job to another worker, the same job takes its own locks over at once instead of waiting
   * out the TTL (jobs for other versions of the records still wait). Two runs of one job id carry the
   * same payload, so they never race each other with different content.
   */
  async beginMany(
    connection: string,
    entity: string,
    records: ReadonlyArray<{ erpId: string; buyerId?: string }>,
    lockTtlMs: number,
    owner: string,
  ): Promise<RecordBegun[]> {
    if (!records.length) return [];
    const keys = [this.keys.ledger(connection, entity), this.keys.customersEnsured(connection)];
    const args: string[] = [owner, String(lockTtlMs)];
    for (const r of records) {
      keys.push(this.keys.recordLock(connection, entity, r.erpId));
      args.push(r.erpId, r.buyerId ?? '');
    }
    const flat = (await BEGIN.run(this.redis, keys, args)) as Array<number | string | null>;
    return records.map((r, i) => {
      const entry = flat[3 * i + 1];
      return {
        locked: flat[3 * i] === 1,
        current: typeof entry === 'string' ? decodeLedgerEntry(r.erpId, entry) : undefined,
        customerEnsured: flat[3 * i + 2] === 1,
      };
    });
  }

  /**
   * Every record's outcome in one step, its lock released (if `owner` still holds it). Returns, per
   * record, whether its ledger entry was written (false when a newer version was already there, or the
   * record was not written to billing).
   */
  async settleMany(
    connection: string,
    entity: string,
    records: ReadonlyArray<{ erpId: string; settlement: RecordSettlement }>,
    owner: string,
    jobId: string,
  ): Promise<boolean[]> {
    if (!records.length) return [];
    const keys = [
      this.keys.ledger(connection, entity),
      this.keys.quarantine(connection),
      this.keys.inFlight(connection),
      this.keys.ledgerByDate(connection, entity),
    ];
    const args: Array<string | number> = [owner, jobId];
    for (const { erpId, settlement: s } of records) {
      keys.push(this.keys.recordLock(connection, entity, erpId));
      const version =
        s.outcome === 'written' ? s.entry.version : s.outcome === 'unchanged' || s.outcome === 'held' ? s.version : '';
      const entry = s.outcome === 'written' ? encodeLedgerEntry(erpId, s.entry) : '';
      const day = s.outcome === 'written' ? (dayScoreOf(s.entry) ?? '') : '';
      args.push(OUTCOME_CODE[s.outcome], erpId, Quarantine.field(entity, erpId), version, entry, day);
    }
    const written = (await SETTLE.run(this.redis, keys, args)) as number[];
    return written.map((w) => w === 1);
  }

  /** Gives the locks `owner` still holds of these records `lockTtlMs` more; returns how many it held. */
  async extendLocks(
    connection: string,
    entity: string,
    erpIds: readonly string[],
    lockTtlMs: number,
    owner: string,
  ): Promise<number> {
    if (!erpIds.length) return 0;
    const keys = erpIds.map((erpId) => this.keys.recordLock(connection, entity, erpId));
    return (await EXTEND.run(this.redis, keys, [owner, String(lockTtlMs)])) as number;
  }

  /** BEGIN for one record, with a release of its lock for a caller that will not settle it. */
  async begin(
    connection: string,
    entity: string,
    erpId: string,
    buyerId: string | undefined,
    lockTtlMs = 60_000,
    owner: string = randomUUID(),
  ): Promise<UpsertBegin> {
    const [begun] = await this.beginMany(connection, entity, [{ erpId, buyerId }], lockTtlMs, owner);
    if (!begun!.locked) return { customerEnsured: false };
    const lockKey = this.keys.recordLock(connection, entity, erpId);
    return {
      lock: { owner, release: async () => void (await RELEASE.run(this.redis, [lockKey], [owner])) },
      current: begun!.current,
      customerEnsured: begun!.customerEnsured,
    };
  }

  /**
   * SETTLE for one record written to billing: ledger write (and its document-date index entry) +
   * quarantine clear + in-flight entry settled (if still job `jobId`'s) + lock release; false when a
   * newer version was already there.
   */
  async commit(
    connection: string,
    entity: string,
    erpId: string,
    entry: LedgerEntry,
    owner: string,
    jobId: string,
  ): Promise<boolean> {
    const [written] = await this.settleMany(
      connection,
      entity,
      [{ erpId, settlement: { outcome: 'written', entry } }],
      owner,
      jobId,
    );
    return written!;
  }
}
