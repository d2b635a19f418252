import type { SourceRecord } from '../../src/connector/types.js';
import { idsGone } from '../../src/pipeline/ids-gone.js';
import type { LedgerEntry } from '../../src/pipeline/ledger.js';
import type { ReviewEntry } from '../../src/pipeline/review-queue.js';
import type { DriftItem } from './drift.js';
import { dateInZone } from './date-in-zone.js';
import type { ReconcileHelpers } from './types.js';

export interface SourceSide {
  checked: number;
  items: Array<DriftItem & { version: string }>;
}

/** How far the source read reaches past each end of the window: any time zone's day lies inside it. */
export const SOURCE_READ_MARGIN_MS = 86_400_000;

/**
 * Deep mode: read the source itself, for the window's days only. Every invoice the source changed on
 * those days (its version's date, in reconcile.timeZone) is compared with the ledger (never synced →
 * missing; ledger older → stale). The read reaches a day past either end of the window (source clocks
 * and the configured zone differ), but a change is judged only in the window of its own date, so
 * adjacent windows report it once. Where the connector can list every id (vendors with hard deletes and
 * no delete feed), ids the ledger holds but the source no longer has are deletes: they are recorded in
 * the ledger (`sourceDeletedAt`) for the billing and ledger passes, which run after this one and count
 * each in the window of the day it was found. Source ids are kept in Redis, not in memory.
 */
export async function readSourceSide(
  rt: ReconcileHelpers,
  conn: string,
  window: { from: string; to: string },
  signal?: AbortSignal,
): Promise<SourceSide> {
  const handle = rt.connection(conn);
  const stream = handle.connector.streams.invoices;
  const log = rt.logger.child({ connection: conn, reconcile: 'deep' });
  const tz = rt.config.reconcile.timeZone;
  const { since, until } = sourceReadSpan(window, Date.now());
  const read: SourceRead = {
    rt,
    conn,
    syncDrafts: handle.config.syncDrafts,
    inWindow: (version) => {
      const day = dateInZone(Date.parse(version), tz);
      return day >= window.from && day <= window.to;
    },
    out: { checked: 0, items: [] },
  };
  const ctx = handle.readContext({ logger: log, signal, until });
  // A window that has not begun yet has no source changes to read.
  const pages =
    Date.parse(since) < until.getTime() ? stream.read(ctx, { ...stream.initialState(undefined), cursor: since }) : [];
  for await (const page of pages) await judgeSourcePage(read, page.records);
  if (stream.listIds) await markIdsGone(rt, conn, stream.listIds(ctx));
  return read.out;
}

/** What the read reaches: a day past either end of the window, never past now. */
export function sourceReadSpan(window: { from: string; to: string }, now: number): { since: string; until: Date } {
  const since = new Date(Date.parse(`${window.from}T00:00:00Z`) - SOURCE_READ_MARGIN_MS).toISOString();
  const until = new Date(Math.min(now, Date.parse(`${window.to}T00:00:00Z`) + 86_400_000 + SOURCE_READ_MARGIN_MS));
  return { since, until };
}

/** One deep read under way: where it records, and how it judges a record. */
interface SourceRead {
  rt: ReconcileHelpers;
  conn: string;
  syncDrafts: boolean;
  inWindow(version: string): boolean;
  out: SourceSide;
}

/**
 * A source record against its ledger entry:
 * - `mark-deleted`: deleted in the source, the ledger not told yet; `known-deleted`: deleted, and told;
 * - `outside`: read for the margin, judged in the window of its own date;
 * - `draft`: a draft never written (syncDrafts: false): not a receivable, billing is not expected to hold it;
 * - `missing`: never synced (unless quarantined); `stale`: the ledger holds an older version;
 * - `ahead`: the ledger holds a newer version than the source's, or a delete the source does not have
 *   (a version no source read gave: a delivery's wrong time); `in-step`.
 */
export type SourceVerdict =
  'mark-deleted' | 'known-deleted' | 'outside' | 'draft' | 'missing' | 'stale' | 'ahead' | 'in-step';

export function classifySourceRecord(
  r: Pick<SourceRecord, 'deleted' | 'draft' | 'version'>,
  e: Pick<LedgerEntry, 'sourceDeletedAt' | 'version'> | undefined,
  read: Pick<SourceRead, 'syncDrafts' | 'inWindow'>,
): SourceVerdict {
  if (r.deleted) return e && !e.sourceDeletedAt ? 'mark-deleted' : 'known-deleted';
  if (!read.inWindow(r.version)) return 'outside';
  if (r.draft && !read.syncDrafts && !e) return 'draft';
  if (!e) return 'missing';
  if (e.version > r.version || e.sourceDeletedAt) return 'ahead';
  return e.version < r.version ? 'stale' : 'in-step';
}

async function judgeSourcePage(read: SourceRead, records: SourceRecord[]): Promise<void> {
  const { rt, conn, out } = read;
  const ledger = await rt.ledger.getMany(
    conn,
    'invoices',
    records.map((r) => r.id),
  );
  for (const [i, r] of records.entries()) {
    const e = ledger[i];
    const verdict = classifySourceRecord(r, e, read);
    // A delete found in the source is a fact: it is recorded on the ledger entry as it is now (an upsert
    // committing meanwhile keeps its content); the billing and ledger passes decide whether billing reflects it.
    if (verdict === 'mark-deleted') await rt.ledger.markSourceDeleted(conn, 'invoices', r.id, r.version);
    if (verdict === 'missing' || verdict === 'stale' || verdict === 'ahead' || verdict === 'in-step') out.checked++;
    const waiting =
      verdict === 'missing' || verdict === 'stale' ? await rt.review?.get(conn, 'invoices', r.id) : undefined;
    if (waiting) {
      // Held for review before write: a person's decision brings it, not a sync (`erp-sync review list`).
      out.items.push({ ...heldItem(waiting, e), erpId: r.id, version: r.version });
      continue;
    }
    if (verdict === 'missing' && !(await rt.quarantine.get(conn, 'invoices', r.id)))
      // A quarantined one is reported by the quarantine (dlq list), with its reason.
      out.items.push({
        kind: 'missing_in_billing',
        erpId: r.id,
        detail: `source version ${r.version} never synced`,
        version: r.version,
      });
    if (verdict === 'ahead') out.items.push({ ...aheadItem(r, e!), erpId: r.id, version: r.version });
    if (verdict === 'stale')
      out.items.push({
        kind: 'stale_version',
        erpId: r.id,
        invoiceId: e!.billingId,
        invoiceNumber: e!.number,
        detail: `source at ${r.version}, billing/ledger at ${e!.version}`,
        version: r.version,
      });
  }
}

/** A ledger entry ahead of its source record, as a reconcile reports it (the repair rewrites it). */
export function aheadItem(
  r: Pick<SourceRecord, 'version'>,
  e: Pick<LedgerEntry, 'version' | 'sourceDeletedAt' | 'billingId' | 'number'>,
): DriftItem {
  const held = e.sourceDeletedAt ? `deleted at ${e.sourceDeletedAt} (version ${e.version})` : `version ${e.version}`;
  return {
    kind: 'ledger_ahead_of_source',
    invoiceId: e.billingId,
    invoiceNumber: e.number,
    detail: `ledger holds ${held}; the source has it live at ${r.version}`,
  };
}

/** A record held for review (or rejected) as a reconcile reports it: `held`, with the rule, or who rejected it. */
export function heldItem(
  w: Pick<ReviewEntry, 'version' | 'rule' | 'state' | 'since' | 'by' | 'note'>,
  e: Pick<LedgerEntry, 'version' | 'billingId' | 'number'> | undefined,
): DriftItem {
  const why =
    w.state === 'rejected'
      ? `rejected by ${w.by ?? 'someone'}: ${w.note ?? ''}`
      : `held by rule ${w.rule} since ${new Date(w.since).toISOString()}`;
  return {
    kind: 'held',
    ...(e ? { invoiceId: e.billingId, invoiceNumber: e.number } : {}),
    detail: `version ${w.version} ${why}${e ? `; billing/ledger at ${e.version}` : '; not in billing'}`,
    needsPerson: false,
  };
}

/**
 * Where the connector lists every id: ids the ledger holds (not yet deleted) that the source no longer
 * has are deletes, recorded on the ledger. The source's ids are kept in Redis, not in memory.
 */
async function markIdsGone(rt: ReconcileHelpers, conn: string, ids: AsyncIterable<string[]>): Promise<void> {
  const sourceIds = rt.reconcileState.scratchSet(conn, `source-ids:${Date.now()}`);
  for await (const gone of idsGone(rt.ledger, sourceIds, conn, 'invoices', ids))
    for (const id of gone) await rt.ledger.markSourceDeleted(conn, 'invoices', id, new Date().toISOString());
}
