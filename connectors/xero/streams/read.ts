import type { z } from 'zod';
import type {
  BillingBody,
  EntityName,
  MapContext,
  ReadContext,
  SourceRecord,
  Stream,
  StreamPage,
} from '../../../src/connector/types.js';
import { cursorMsOf } from '../../../src/connector/cursor-ms.js';
import { keysetPages, pageCovering, type KeysetSource } from '../../../src/connector/keyset-pager.js';
import { lifecycleOf, type LifecycleStatuses } from '../../../src/connector/lifecycle.js';
import { DataContractError, RejectedError } from '../../../src/errors/index.js';
import { parseTimestamp, type MapResult } from '../../../src/mapping/index.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Settings } from '../settings.js';
import type { XeroLookups } from './lookups.js';
import { initialState, State } from './state.js';

/**
 * The one read loop of every Xero stream. https://developer.xero.com/documentation/api/accounting/invoices
 * (If-Modified-Since, order, page, pageSize; the same parameters on credit notes and contacts).
 *
 * Request: `If-Modified-Since: <UTC, whole seconds, no offset>` (the documented form, e.g.
 * `2025-02-10T06:31:10`), `order=UpdatedDateUTC ASC`, `page`, `pageSize` (100; see below), plus the
 * stream's filters. Line items only come with `page` (https://developer.xero.com/faq/limits/retrieving-data).
 *
 * Pages are evaluated afresh on every request, ordered by UpdatedDateUTC, so plain page 1..n misses a
 * record whenever one on an already-read page is edited (it moves to the end, the rest shift up). The
 * paging is the shared keyset pager (src/connector/keyset-pager.ts, where the argument is): after each
 * full page a new query starts at page 1 from the last UpdatedDateUTC seen; a page that makes no progress
 * is read again as one page of MAX_PAGE_SIZE (1000); beyond 1000 records in the bound's two seconds the
 * pager walks by overlapping, checked pages (`page`/`pageSize` chosen by pageCovering).
 *
 * Xero's part: the bound is inclusive whatever Xero's comparison is — If-Modified-Since has whole seconds
 * and may mean "strictly after" (HTTP), so it is sent as floor(cursor) − 1 s; records re-read from that
 * margin are dropped by id + UpdatedDateUTC. The read stops on the last page (`pagination.page >=
 * pageCount`, else a short page), or once a page goes past `ctx.until`: newer records are left for the
 * next run, which starts there.
 *
 * Page state: `cursor` = the newest UpdatedDateUTC handed out (≤ until), an inclusive lower bound — every
 * record changed at or after it is still ahead, so saving it after each page is safe (isSorted: true).
 */
export interface ListSpec<Raw> {
  /** Path under the API root, and the response's collection key: "Invoices", "CreditNotes", "Contacts". */
  path: 'Invoices' | 'CreditNotes' | 'Contacts';
  schema: z.ZodType<Record<string, unknown>>;
  /** Stream filters (where, Statuses, includeArchived). */
  query(ctx: ReadContext): Record<string, string>;
  toRecord(raw: Raw): SourceRecord<Raw>;
}

interface Pagination {
  page: number;
  pageSize?: number;
  pageCount: number;
}

/** `2025-02-10T06:31:10`: UTC, whole seconds, no offset (the documented If-Modified-Since form). */
export function ifModifiedSinceHeader(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

export async function* readList<Raw>(
  ctx: ReadContext<Settings>,
  state: State,
  spec: ListSpec<Raw>,
): AsyncIterable<StreamPage<Raw, State>> {
  const endpoint = `GET /${spec.path}`;
  const from = cursorMsOf(state.cursor, { source: 'xero', operation: endpoint });
  const source: KeysetSource<SourceRecord<Raw>> = {
    pageSize: typeof ctx.settings.pageSize === 'number' ? ctx.settings.pageSize : DEFAULT_PAGE_SIZE,
    maxPageSize: MAX_PAGE_SIZE,
    where: { source: 'xero', operation: endpoint },
    // UpdatedDateUTC has milliseconds; the header only whole seconds, maybe compared as "strictly after".
    resolutionMs: 1,
    lowerBound: (ms) => Math.floor(ms / 1000) * 1000 - 1000,
    timeOf: (r) => Date.parse(r.version),
    keyOf: (r) => `${r.id}@${r.version}`,
    fetch: async ({ since, offset, limit }) => {
      const { page, pageSize } = pageCovering(offset, limit);
      const body = await ctx.http.request({
        path: spec.path,
        endpoint,
        query: { ...spec.query(ctx), order: 'UpdatedDateUTC ASC', page, pageSize },
        headers: since === undefined ? {} : { 'If-Modified-Since': ifModifiedSinceHeader(since) },
        schema: spec.schema,
        signal: ctx.signal,
      });
      const items = (body[spec.path] ?? []) as Raw[];
      const pagination = body.pagination as Pagination | null | undefined;
      // Trust Xero's own pagination block when it sends one (it also holds if Xero caps pageSize below ours).
      return {
        records: items.map((raw) => spec.toRecord(raw)),
        offset: (page - 1) * (pagination?.pageSize ?? pageSize),
        more: pagination ? pagination.page < pagination.pageCount : items.length >= pageSize,
      };
    },
  };
  for await (const page of keysetPages(source, from, ctx.until.getTime())) {
    if (page.records.length > 0)
      yield { records: page.records, state: { cursor: new Date(page.cursor!).toISOString() } };
  }
}

/**
 * A listed Xero record → SourceRecord. `version` = UpdatedDateUTC (`/Date(ms+0000)/`) as UTC ISO with ms.
 * Xero keeps deleted documents, with Status DELETED
 * (https://developer.xero.com/documentation/api/accounting/invoices): such a record is a SourceRecord
 * with `deleted: true` and status 'DELETED'; VOIDED keeps `deleted` unset — a void is a status, never a
 * delete. A record without a readable UpdatedDateUTC cannot be placed on the cursor, so the page fails loudly.
 */
export function toSourceRecord<Raw extends { UpdatedDateUTC: string }>(
  raw: Raw,
  id: string,
  status: string | null | undefined,
  endpoint: string,
): SourceRecord<Raw> {
  const version = parseTimestamp(raw.UpdatedDateUTC, { field: 'UpdatedDateUTC' });
  if (!version.ok)
    throw new DataContractError(`xero ${endpoint}: record ${id} has no usable UpdatedDateUTC (${version.message})`, {
      source: 'xero',
      operation: endpoint,
    });
  const record: SourceRecord<Raw> = { id, version: version.value, raw };
  if (status) record.status = status;
  if (status === 'DELETED') record.deleted = true;
  return record;
}

/** One Xero stream: what differs between invoices, credit notes and contacts. */
export interface StreamSpec<Raw extends { UpdatedDateUTC: string }> {
  name: EntityName;
  path: ListSpec<Raw>['path'];
  primaryKey: 'InvoiceID' | 'CreditNoteID' | 'ContactID';
  schema: z.ZodType<Record<string, unknown>>;
  /** Stream filters (where, Statuses, includeArchived). */
  query: ListSpec<Raw>['query'];
  /** Xero's status of a record, as it says it. */
  statusOf(raw: Raw): string | null | undefined;
  /** Why a record is not one billing takes (SourceRecord.notForBilling), if it is not. */
  notForBilling?(raw: Raw): string | undefined;
  /** Statuses that are not `issued` (SourceRecord.lifecycle); contacts have none. */
  lifecycle?: LifecycleStatuses;
  /**
   * How a repair reads records by id: `IDs` = one list call per 100 ids (`IDs=a,b,c`, documented for
   * invoices and contacts); `single` = `GET /<Path>/{id}` per id (credit notes document no `IDs`).
   */
  byIds: 'IDs' | 'single';
  supportsWindow: boolean;
  /** What the mapper needs besides the record (documents: organisation and tax rates; contacts: nothing). */
  lookups?(ctx: ReadContext<Settings>): Promise<XeroLookups>;
  map(record: SourceRecord, ctx: MapContext): MapResult<BillingBody>;
}

/** Ids per by-ids call: one page of the list (pageSize 100), and a URL of about 4 KB of GUIDs. */
const IDS_PER_CALL = 100;

export function defineStream<Raw extends { UpdatedDateUTC: string }>(
  spec: StreamSpec<Raw>,
): Stream<Raw, State, Settings> {
  const endpoint = `GET /${spec.path}`;
  const toRecord = (raw: Raw): SourceRecord<Raw> => {
    const record = toSourceRecord(raw, String(raw[spec.primaryKey as keyof Raw]), spec.statusOf(raw), endpoint);
    const why = spec.notForBilling?.(raw);
    if (why) record.notForBilling = why;
    return record.deleted ? record : { ...record, ...lifecycleOf(record.status, spec.lifecycle ?? {}) };
  };
  return {
    name: spec.name,
    primaryKey: spec.primaryKey,
    cursorField: 'UpdatedDateUTC',
    isSorted: true,
    state: State,
    initialState,
    supportsWindow: spec.supportsWindow,
    read: (ctx, state) =>
      readList<Raw>(ctx, state, {
        path: spec.path,
        schema: spec.schema,
        query: spec.query,
        toRecord,
      }),
    readByIds: (ctx, ids) => readByIds(ctx, spec, ids, toRecord),
    ...(spec.lookups ? { lookups: spec.lookups } : {}),
    map: spec.map,
  };
}

/**
 * A repair's read of records by id. `IDs`: `GET /Invoices?IDs=a,b,c` (and `/Contacts`), with the stream's
 * own filters (every status, so a DELETED one comes back as a delete) and `page=1` (line items only come
 * with `page`), 100 ids a call (https://developer.xero.com/documentation/api/accounting/invoices#get-invoices,
 * https://developer.xero.com/documentation/api/accounting/contacts#get-contacts). `single`:
 * `GET /CreditNotes/{CreditNoteID}` per id (https://developer.xero.com/documentation/api/accounting/creditnotes#get-creditnotes).
 * An id the source does not have is absent from the answer (or a 404): not yielded.
 */
async function* readByIds<Raw extends { UpdatedDateUTC: string }>(
  ctx: ReadContext<Settings>,
  spec: StreamSpec<Raw>,
  ids: readonly string[],
  toRecord: (raw: Raw) => SourceRecord<Raw>,
): AsyncGenerator<SourceRecord<Raw>[]> {
  const endpoint = `GET /${spec.path}`;
  if (spec.byIds === 'IDs') {
    for (let i = 0; i < ids.length; i += IDS_PER_CALL) {
      const chunk = ids.slice(i, i + IDS_PER_CALL);
      const body = await ctx.http.request({
        path: spec.path,
        endpoint,
        query: { ...spec.query(ctx), IDs: chunk.join(','), page: 1, pageSize: IDS_PER_CALL },
        schema: spec.schema,
        signal: ctx.signal,
      });
      const wanted = new Set(chunk);
      yield ((body[spec.path] ?? []) as Raw[]).map(toRecord).filter((r) => wanted.has(r.id));
    }
    return;
  }
  for (const id of ids) {
    try {
      const body = await ctx.http.request({
        path: `${spec.path}/${encodeURIComponent(id)}`,
        endpoint: `${endpoint}/{id}`,
        schema: spec.schema,
        signal: ctx.signal,
      });
      yield ((body[spec.path] ?? []) as Raw[]).map(toRecord).filter((r) => r.id === id);
    } catch (err) {
      if (err instanceof RejectedError && err.status === 404) {
        yield [];
        continue;
      }
      throw err;
    }
  }
}
