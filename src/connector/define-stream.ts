import type { z } from 'zod';
import type { MapResult } from '../mapping/index.js';
import type { BillingBody } from './billing-body.js';
import type { EntityName } from './entities.js';
import { lifecycleOf, type LifecycleStatuses } from './lifecycle.js';
import { outsideSelection, type Selection } from './selection.js';
import type { MapContext, ReadContext, SourceRecord, Stream, StreamState } from './types.js';

/**
 * The one stream engine under every connector. A connector declares each stream once (what its records
 * are: key, cursor, state, status words, lookups, mapper) and supplies a pager (how the vendor is read:
 * its list, its paging, its by-id call). The engine turns the pager's raw rows into SourceRecords the same
 * way for every vendor, so `id`, `version`, `status`, `deleted`, `lifecycle`, `draft` and `notForBilling`
 * mean one thing whoever sent them (connectors/README.md, "The contract").
 */

/** One row as the vendor sent it, with the version the pager read it at (the pager orders and bounds by it). */
export interface RawRow<Raw> {
  raw: Raw;
  /** The record's last-modified instant, UTC ISO with ms. */
  version: string;
  /**
   * The row the vendor listed when `raw` came from a detail read of it (a list-then-detail pager): what
   * `statusOf` may fall back on when the detail leaves something out.
   */
  listed?: Record<string, unknown>;
}

export interface RawPage<Raw, State> {
  rows: RawRow<Raw>[];
  /** State to resume from once this page's records are durably handled. */
  state: State;
  /** Rows listed but not fetched because the pipeline already holds their version (ReadContext.knownVersions). */
  knownSkipped?: number;
  /** Records the whole read holds, where the vendor's list answer says so. */
  announcedTotal?: number;
}

/** The vendor's reading for one stream: pages of raw rows, rows by id, and every id (when the vendor has no delete feed). */
export interface Pager<Raw, State, Settings> {
  /** True only when reads are ordered by the cursor (Stream.isSorted). */
  isSorted: boolean;
  /** A read that starts over costs little more than its list pages (Stream.resumable). */
  resumable?: boolean;
  read(ctx: ReadContext<Settings>, state: State): AsyncIterable<RawPage<Raw, State>>;
  /** The rows of these ids as `read` would give them; an id the source no longer has is left out. */
  readByIds(ctx: ReadContext<Settings>, ids: readonly string[]): AsyncIterable<RawRow<Raw>[]>;
  listIds?(ctx: ReadContext<Settings>): AsyncIterable<string[]>;
}

/** What a pager is told about the stream it reads for. */
export interface PagedStream<Raw> {
  name: EntityName;
  /** The stream filters a window read by document date (ReadContext.window). */
  supportsWindow: boolean;
  /** The record's id (its primary key, as a string). */
  idOf(raw: Raw): string;
  /** Which records the stream takes (selection.ts): a list read sends the rows marked `listFilter`; a read by id does not. */
  selection?: Selection<Raw>;
}

/** A connector's pager, built for one stream (connectors/<vendor>/streams/read.ts). */
export type PagerFor<Raw, State, Settings> = (stream: PagedStream<Raw>) => Pager<Raw, State, Settings>;

/** The rules that turn a raw row into a SourceRecord: the same fields for every vendor. */
export interface RecordRules<Raw> {
  /** Field of the raw record that is its primary key. */
  primaryKey: string;
  /** The vendor's status as it says it (kept on the record; undefined or empty: none). */
  statusOf(raw: Raw, listed?: Record<string, unknown>): string | null | undefined;
  /** The vendor's status words that are not `issued` (SourceRecord.lifecycle); none: every record is issued. */
  lifecycle?: LifecycleStatuses;
  /**
   * The vendor's status words of a record it reports deleted (Xero DELETED, a QuickBooks CDC stub's
   * Deleted): `deleted: true` and no lifecycle. Never a void's word: a void is a status.
   */
  deleted?: readonly string[];
  /**
   * Which records billing takes (src/connector/selection.ts): one table, sent as the list's filter where
   * the vendor has one and checked on every record however it was read; a record outside it is
   * `notForBilling` (skipped and counted).
   */
  selection?: Selection<Raw>;
}

export interface StreamSpec<Raw, State extends StreamState, Settings, Lookups> extends RecordRules<Raw> {
  name: EntityName;
  /** Field of the raw record the incremental cursor reads. */
  cursorField: string;
  state: z.ZodType<State>;
  initialState(from?: string): State;
  supportsWindow: boolean;
  lookups?(ctx: ReadContext<Settings>): Promise<Lookups>;
  map(record: SourceRecord<Raw>, ctx: MapContext<Lookups>): MapResult<BillingBody>;
  /** The link billing attaches to the record's document (Stream.documentUrl). */
  documentUrl?: Stream<Raw, State, Settings, Lookups>['documentUrl'];
  pager: PagerFor<Raw, State, Settings>;
}

/** A raw row as the SourceRecord every stream yields. */
export function sourceRecordOf<Raw>(rules: RecordRules<Raw>, row: RawRow<Raw>): SourceRecord<Raw> {
  const status = rules.statusOf(row.raw, row.listed) ?? undefined;
  const record: SourceRecord<Raw> = { id: idOf(rules, row.raw), version: row.version, raw: row.raw };
  if (status) record.status = status;
  const why = outsideSelection(rules.selection, row.raw);
  if (why) record.notForBilling = why;
  if (status !== undefined && rules.deleted?.includes(status)) return { ...record, deleted: true };
  return { ...record, ...lifecycleOf(status, rules.lifecycle ?? {}) };
}

function idOf<Raw>(rules: Pick<RecordRules<Raw>, 'primaryKey'>, raw: Raw): string {
  return String((raw as Record<string, unknown>)[rules.primaryKey]);
}

export function defineStream<Raw, State extends StreamState, Settings, Lookups>(
  spec: StreamSpec<Raw, State, Settings, Lookups>,
): Stream<Raw, State, Settings, Lookups> {
  const voidDeleted = spec.lifecycle?.void?.filter((s) => spec.deleted?.includes(s)) ?? [];
  if (voidDeleted.length > 0)
    throw new TypeError(`${spec.name}: ${voidDeleted.join(', ')} cannot be both a void and a delete`);
  const pager = spec.pager({
    name: spec.name,
    supportsWindow: spec.supportsWindow,
    idOf: (raw) => idOf(spec, raw),
    ...(spec.selection ? { selection: spec.selection } : {}),
  });
  const toRecord = (row: RawRow<Raw>) => sourceRecordOf(spec, row);
  return {
    name: spec.name,
    primaryKey: spec.primaryKey,
    cursorField: spec.cursorField,
    isSorted: pager.isSorted,
    ...(pager.resumable ? { resumable: true } : {}),
    state: spec.state,
    initialState: spec.initialState,
    supportsWindow: spec.supportsWindow,
    ...(spec.lookups ? { lookups: spec.lookups } : {}),
    map: spec.map,
    ...(spec.documentUrl ? { documentUrl: spec.documentUrl } : {}),
    async *read(ctx, state) {
      for await (const page of pager.read(ctx, state)) {
        const records = page.rows.map(toRecord);
        yield {
          records,
          state: page.state,
          ...(page.knownSkipped === undefined ? {} : { knownSkipped: page.knownSkipped }),
          ...(page.announcedTotal === undefined ? {} : { announcedTotal: page.announcedTotal }),
        };
      }
    },
    async *readByIds(ctx, ids) {
      for await (const rows of pager.readByIds(ctx, ids)) yield rows.map(toRecord);
    },
    ...(pager.listIds ? { listIds: pager.listIds } : {}),
  };
}
