import type { SourceRecord } from '../../src/connector/types.js';
import { Ledger, type LedgerEntry } from '../../src/pipeline/ledger.js';

/**
 * What a pull does with one record it read, before mapping it. Checked in this order:
 *
 * | the record                                  | decision          | what the pull does                                       |
 * |---------------------------------------------|-------------------|----------------------------------------------------------|
 * | billing does not take it (`notForBilling`)  | `not-for-billing` | counts it, nothing else                                  |
 * | a draft, on a connection with `syncDrafts` off | `draft`        | sets it aside (jobs/pull/draft-record.ts)                     |
 * | deleted in the source (never a void)        | `deleted`         | marks the ledger entry for reconciliation, once          |
 * | anything else                               | `map`             | maps it, then `classifyMapped` decides                   |
 */
export type RecordDecision =
  { kind: 'not-for-billing' } | { kind: 'draft' } | { kind: 'deleted'; markSourceDeleted: boolean } | { kind: 'map' };

export function classifyRecord(
  record: Pick<SourceRecord, 'notForBilling' | 'draft' | 'deleted'>,
  known: Pick<LedgerEntry, 'sourceDeletedAt'> | undefined,
  conn: { syncDrafts: boolean },
): RecordDecision {
  if (record.notForBilling) return { kind: 'not-for-billing' };
  if (record.draft && !conn.syncDrafts) return { kind: 'draft' };
  // A source delete cannot be expressed in billing: the ledger entry is marked, the first time only.
  if (record.deleted) return { kind: 'deleted', markSourceDeleted: Boolean(known && !known.sourceDeletedAt) };
  return { kind: 'map' };
}

/**
 * What a pull does with a record once mapped:
 *
 * | the mapping / the ledger entry                  | decision     | what the pull does                                |
 * |-------------------------------------------------|--------------|---------------------------------------------------|
 * | the record did not map (already quarantined)    | `unmappable` | counts it as quarantined                          |
 * | the ledger holds this content hash (and the     | `unchanged`  | skips it, clears its quarantine entry             |
 * | document link, when the record has one)         |              |                                                   |
 * | this content, with a link the ledger lacks      | `enqueue`    | an upsert job under a fresh id (`repair`)         |
 * | the ledger holds a newer version                | `stale`      | skips it                                          |
 * | anything else                                   | `enqueue`    | an upsert job; `repair`: under a fresh job id     |
 *
 * A repair (reconcile forgot the hash) must not reuse the id of the completed original job, which
 * BullMQ would silently ignore as a duplicate.
 */
export type MappedDecision =
  { kind: 'unmappable' } | { kind: 'unchanged' } | { kind: 'stale' } | { kind: 'enqueue'; repair: boolean };

export function classifyMapped(
  record: Pick<SourceRecord, 'version'>,
  known: Pick<LedgerEntry, 'hash' | 'version' | 'attachmentUrl'> | undefined,
  mapped: { ok: false } | { ok: true; hash: string; data?: { documentUrl?: string } },
): MappedDecision {
  if (!mapped.ok) return { kind: 'unmappable' };
  if (known && known.hash === mapped.hash) {
    const link = mapped.data?.documentUrl;
    if (!link || known.attachmentUrl === link) return { kind: 'unchanged' };
    // A link billing does not hold yet (links just turned on, a rotated key) is a change of its own, under a
    // fresh job id: the content's job id is the completed write's, which BullMQ would ignore as a duplicate.
    if (known.version <= record.version) return { kind: 'enqueue', repair: true };
  }
  if (known && known.version > record.version) return { kind: 'stale' };
  return { kind: 'enqueue', repair: Ledger.repairRequested(known) };
}
