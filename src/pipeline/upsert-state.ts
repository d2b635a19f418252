import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';
import type { LedgerEntry } from './ledger.js';
import { decodeLedgerEntry, encodeLedgerEntry } from './ledger-entry-codec.js';
import { LuaScript } from './lua-script.js';
import { Quarantine } from './quarantine.js';
import { dayScoreOf } from './ledger-date-index.js';

/*
 * The upsert job's Redis work in two round trips instead of seven (measured in bench/pipeline.bench.ts),
 * each one atomic script: BEGIN takes the record lock, reads the ledger entry and whether the buyer is
 * already ensured; COMMIT writes the ledger entry (same rule as Ledger.put), clears the quarantine entry
 * (same rule as Quarantine.clear), settles the record's in-flight entry (InFlight.settle) and releases the lock.
 */
const BEGIN = LuaScript.load('begin-upsert-3');
const COMMIT = LuaScript.load('commit-upsert-5');
const RELEASE = LuaScript.load('release-lock-1');

export interface UpsertBegin {
  /** undefined = another job holds this record's lock. */
  lock?: { owner: string; release(): Promise<void> };
  current?: LedgerEntry;
  customerEnsured: boolean;
}

/** One upsert job's state transitions, each a single atomic script. */
export class UpsertState {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  /**
   * `owner`: the job's id. A worker killed mid-job cannot release the record lock; when BullMQ hands
   * the stalled job to another worker, the same job takes its own lock over at once instead of waiting
   * out the TTL (jobs for other versions of the record still wait). Two runs of one job id carry the
   * same payload, so they never race each other with different content.
   */
  async begin(
    connection: string,
    entity: string,
    erpId: string,
    buyerId: string | undefined,
    lockTtlMs = 60_000,
    owner: string = randomUUID(),
  ): Promise<UpsertBegin> {
    const lockKey = this.keys.recordLock(connection, entity, erpId);
    const [locked, entry, ensured] = (await BEGIN.run(
      this.redis,
      [lockKey, this.keys.ledger(connection, entity), this.keys.customersEnsured(connection)],
      [owner, String(lockTtlMs), erpId, buyerId ?? ''],
    )) as [number, string | null, number];
    if (locked !== 1) return { customerEnsured: false };
    return {
      lock: { owner, release: async () => void (await RELEASE.run(this.redis, [lockKey], [owner])) },
      current: entry ? decodeLedgerEntry(erpId, entry) : undefined,
      customerEnsured: ensured === 1,
    };
  }

  /**
   * Ledger write (and its document-date index entry) + quarantine clear + in-flight entry settled (if still job `jobId`'s) + lock release;
   * false when a newer version was already there.
   */
  async commit(connection: string, entity: string, erpId: string, entry: LedgerEntry, owner: string, jobId: string): Promise<boolean> {
    const written = await COMMIT.run(
      this.redis,
      [
        this.keys.ledger(connection, entity),
        this.keys.quarantine(connection),
        this.keys.recordLock(connection, entity, erpId),
        this.keys.inFlight(connection),
        this.keys.ledgerByDate(connection, entity),
      ],
      [erpId, entry.version, encodeLedgerEntry(erpId, entry), Quarantine.field(entity, erpId), owner, jobId, dayScoreOf(entry) ?? ''],
    );
    return written === 1;
  }
}
