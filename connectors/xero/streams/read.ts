import type { z } from 'zod';
import type { BillingBody, EntityName, MapContext, ReadContext, SourceRecord, Stream, StreamPage } from '../../../src/connector/types.js';
import { cursorMsOf } from '../../../src/connector/cursor-ms.js';
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
 * Why not simply page 1..n of one query: pages are evaluated afresh on every request, ordered by
 * UpdatedDateUTC. A record on an already-read page that is edited during the read moves to the end, every
 * later record shifts one place up, and page n+1 silently starts one record late — a miss. So:
 *
 * 1. After each page, start a NEW query at page 1 from the last UpdatedDateUTC seen. Page 1 of a query is
 *    one consistent snapshot, and an edited record can only move to a later UpdatedDateUTC, so it is
 *    found again further on; nothing before it can be skipped.
 * 2. The bound is inclusive whatever Xero's comparison is: If-Modified-Since has whole seconds and may
 *    mean "strictly after" (HTTP) at second precision, so we send floor(cursor) − 1 s. Records re-read
 *    from that overlap are dropped by id + UpdatedDateUTC (and records older than the cursor are skipped:
 *    an earlier page or read already had them).
 * 3. If a full page makes no progress (≥ pageSize records within the overlap's two seconds — same-second
 *    bulk edits), re-read that window as ONE page of MAX_PAGE_SIZE (1000). Only beyond 1000 records in
 *    two seconds do we page by offset inside the window; an edit during that could shift a record past us,
 *    so the window is then re-read whole until a pass runs while the query's newest record and item count
 *    stay the same (nothing changed, nothing shifted; at most 4 passes), and the page cursor stays at the
 *    window's start meanwhile.
 * 4. Stop on the last page (`pagination.page >= pageCount`, else a short page), or once a page goes past
 *    `ctx.until`: records newer than `until` are left for the next run, which starts there.
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
  pageCount: number;
  itemCount?: number;
}

/** `2025-02-10T06:31:10`: UTC, whole seconds, no offset (the documented If-Modified-Since form). */
export function ifModifiedSinceHeader(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

export async function* readList<Raw>(ctx: ReadContext<Settings>, state: State, spec: ListSpec<Raw>): AsyncIterable<StreamPage<Raw, State>> {
  const pageSize = typeof ctx.settings.pageSize === 'number' ? ctx.settings.pageSize : DEFAULT_PAGE_SIZE;
  const untilMs = ctx.until.getTime();
  const endpoint = `GET /${spec.path}`;
  let lower = cursorMsOf(state.cursor, { source: 'xero', operation: endpoint });
  let newest = state.cursor; // newest UpdatedDateUTC handed out (≤ until)
  let windowStart: string | undefined; // set while offset-paging inside one window (3. above)
  const seen = new Map<string, string>();
  const imsOf = (ms: number) => Math.floor(ms / 1000) * 1000 - 1000;

  const fetchPage = async (ims: number | undefined, page: number, size: number, order = 'UpdatedDateUTC ASC') => {
    const body = await ctx.http.request({
      path: spec.path,
      endpoint,
      query: { ...spec.query(ctx), order, page, pageSize: size },
      headers: ims === undefined ? {} : { 'If-Modified-Since': ifModifiedSinceHeader(ims) },
      schema: spec.schema,
      signal: ctx.signal,
    });
    const items = (body[spec.path] ?? []) as Raw[];
    const pagination = body.pagination as Pagination | null | undefined;
    const records = items.map((raw) => spec.toRecord(raw));
    const last = records[records.length - 1];
    return {
      records,
      itemCount: pagination?.itemCount,
      // Trust Xero's own pagination block when it sends one (it also holds if Xero caps pageSize below ours).
      full: pagination ? pagination.page < pagination.pageCount : items.length >= size,
      lastMs: last ? Date.parse(last.version) : undefined,
    };
  };
  /** Records not handed out yet, at or after the cursor, not after `until`. */
  const fresh = (records: SourceRecord<Raw>[]): SourceRecord<Raw>[] => {
    const out: SourceRecord<Raw>[] = [];
    for (const r of records) {
      const ms = Date.parse(r.version);
      if (ms > untilMs || (lower !== undefined && ms < lower) || seen.get(r.id) === r.version) continue;
      seen.set(r.id, r.version);
      out.push(r);
      if (newest === null || r.version > newest) newest = r.version;
    }
    return out;
  };
  const pageOf = (records: SourceRecord<Raw>[]): StreamPage<Raw, State> => ({ records, state: { cursor: windowStart ?? newest } });
  /** Newest record of the query: changes whenever any of its records is edited or created. */
  const marker = async (ims: number) => {
    const r = await fetchPage(ims, 1, 1, 'UpdatedDateUTC DESC');
    const top = r.records[0];
    return `${top?.id ?? ''}@${top?.version ?? ''}#${r.itemCount ?? ''}`;
  };

  let size = pageSize;
  for (;;) {
    const ims = lower === undefined ? undefined : imsOf(lower);
    const first = await fetchPage(ims, 1, size);
    const got = fresh(first.records);
    if (got.length > 0) yield pageOf(got);
    if (!first.full || first.lastMs === undefined || first.lastMs > untilMs) return;

    if (ims === undefined || imsOf(first.lastMs) > ims) {
      // Progress: a new query from the last UpdatedDateUTC seen.
      lower = first.lastMs;
      size = pageSize;
    } else if (size < MAX_PAGE_SIZE) {
      // No progress: the whole page sits in the overlap's two seconds. Re-read the window as one big page.
      size = MAX_PAGE_SIZE;
      continue;
    } else {
      // More than MAX_PAGE_SIZE records in two seconds: page by offset through the window (3. above), then
      // re-read it whole until one pass ran while nothing in the query changed (same newest record and count
      // before and after), so no edit can have shifted a record past us. At most 4 passes.
      windowStart = new Date(lower!).toISOString();
      let end: number | undefined;
      for (let pass = 1; pass <= 4; pass++) {
        const before = pass === 1 ? undefined : await marker(ims);
        end = undefined;
        for (let page = pass === 1 ? 2 : 1; ; page++) {
          const r = await fetchPage(ims, page, MAX_PAGE_SIZE);
          const more = fresh(r.records);
          if (more.length > 0) yield pageOf(more);
          if (!r.full || r.lastMs === undefined || r.lastMs > untilMs) break;
          if (imsOf(r.lastMs) > ims) {
            end = r.lastMs;
            break;
          }
        }
        if (before !== undefined && before === (await marker(ims))) break;
      }
      windowStart = undefined;
      if (end === undefined) return;
      lower = end;
      size = pageSize;
    }
    for (const [id, version] of seen) if (Date.parse(version) < lower) seen.delete(id);
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
    throw new DataContractError(`xero ${endpoint}: record ${id} has no usable UpdatedDateUTC (${version.message})`, { source: 'xero', operation: endpoint });
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

export function defineStream<Raw extends { UpdatedDateUTC: string }>(spec: StreamSpec<Raw>): Stream<Raw, State, Settings> {
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
