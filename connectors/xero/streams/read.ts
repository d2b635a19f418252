import type { z } from 'zod';
import type { PagedStream, Pager, PagerFor, RawRow } from '../../../src/connector/define-stream.js';
import type { ReadContext } from '../../../src/connector/types.js';
import { cursorMsOf } from '../../../src/connector/cursor-ms.js';
import { keysetPages, pageCovering, type KeysetSource } from '../../../src/connector/keyset-pager.js';
import { DataContractError, RejectedError } from '../../../src/errors/index.js';
import { listFilters } from '../../../src/connector/selection.js';
import { parseTimestamp } from '../../../src/mapping/index.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Settings } from '../settings.js';
import type { State } from './state.js';
import { whereFor } from './where-clause.js';

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
 * Records (status, DELETED as a delete, lifecycle) are made by the shared engine (src/connector/define-stream.ts).
 */
export interface XeroList {
  /** Path under the API root, and the response's collection key: "Invoices", "CreditNotes", "Contacts". */
  path: 'Invoices' | 'CreditNotes' | 'Contacts';
  schema: z.ZodType<Record<string, unknown>>;
  /** Parameters of every read, list or by id (`Statuses`, `includeArchived`): not the selection. */
  params?: Record<string, string>;
  /** A `where` clause of every read besides the selection (credit notes: every status). */
  whereAlso?: string;
  /**
   * How a repair reads records by id: `IDs` = one list call per 100 ids (`IDs=a,b,c`, documented for
   * invoices and contacts); `single` = `GET /<Path>/{id}` per id (credit notes document no `IDs`).
   */
  byIds: 'IDs' | 'single';
}

type XeroRaw = { UpdatedDateUTC: string };

interface Pagination {
  page: number;
  pageSize?: number;
  pageCount: number;
  itemCount?: number;
}

/** `2025-02-10T06:31:10`: UTC, whole seconds, no offset (the documented If-Modified-Since form). */
export function ifModifiedSinceHeader(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/**
 * A listed Xero record with its version: UpdatedDateUTC (`/Date(ms+0000)/`) as UTC ISO with ms. A record
 * without a readable UpdatedDateUTC cannot be placed on the cursor, so the page fails loudly.
 */
export function rowOf<Raw extends XeroRaw>(raw: Raw, id: string, endpoint: string): RawRow<Raw> {
  const version = parseTimestamp(raw.UpdatedDateUTC, { field: 'UpdatedDateUTC' });
  if (!version.ok)
    throw new DataContractError(`xero ${endpoint}: record ${id} has no usable UpdatedDateUTC (${version.message})`, {
      source: 'xero',
      operation: endpoint,
    });
  return { raw, version: version.value };
}

/** The pager of one Xero stream (src/connector/define-stream.ts). */
export function pager<Raw extends XeroRaw>(list: XeroList): PagerFor<Raw, State, Settings> {
  return (stream): Pager<Raw, State, Settings> => ({
    isSorted: true,
    read: (ctx, state) => readList(ctx, state, list, stream),
    readByIds: (ctx, ids) => readByIds(ctx, list, stream, ids),
  });
}

async function* readList<Raw extends XeroRaw>(
  ctx: ReadContext<Settings>,
  state: State,
  list: XeroList,
  stream: PagedStream<Raw>,
) {
  const endpoint = `GET /${list.path}`;
  const from = cursorMsOf(state.cursor, { source: 'xero', operation: endpoint });
  // The read's first answer counts every record it will hand out (`pagination.itemCount`, the records
  // matching its filters and If-Modified-Since): a first sync's or repair's announced total. Later
  // queries of the keyset pager restart from a newer bound and count only what is left, so only the
  // first is kept. https://developer.xero.com/documentation/api/accounting/invoices (pagination)
  let announcedTotal: number | undefined;
  let first = true;
  const source: KeysetSource<RawRow<Raw> & { id: string }> = {
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
        path: list.path,
        endpoint,
        query: { ...listQuery(ctx, list, stream), order: 'UpdatedDateUTC ASC', page, pageSize },
        headers: since === undefined ? {} : { 'If-Modified-Since': ifModifiedSinceHeader(since) },
        schema: list.schema,
        signal: ctx.signal,
      });
      const items = (body[list.path] ?? []) as Raw[];
      const pagination = body.pagination as Pagination | null | undefined;
      if (first && typeof pagination?.itemCount === 'number') announcedTotal = pagination.itemCount;
      first = false;
      // Trust Xero's own pagination block when it sends one (it also holds if Xero caps pageSize below ours).
      return {
        records: items.map((raw) => ({ ...rowOf(raw, stream.idOf(raw), endpoint), id: stream.idOf(raw) })),
        offset: (page - 1) * (pagination?.pageSize ?? pageSize),
        more: pagination ? pagination.page < pagination.pageCount : items.length >= pageSize,
      };
    },
  };
  for await (const page of keysetPages(source, from, ctx.until.getTime())) {
    if (page.records.length > 0)
      yield {
        rows: page.records.map(({ raw, version }) => ({ raw, version })),
        state: { cursor: new Date(page.cursor!).toISOString() },
        ...(announcedTotal === undefined ? {} : { announcedTotal }),
      };
  }
}

/**
 * A list read's filters: the stream's selection and window in `where`, and its parameters. A stream
 * without document dates (contacts) takes no window: a backfill's window is not a filter there.
 */
function listQuery(ctx: ReadContext, list: XeroList, stream: PagedStream<unknown>): Record<string, string> {
  const where = whereFor(listFilters(stream.selection), stream.supportsWindow ? ctx : {}, list.whereAlso);
  return { ...list.params, ...(where ? { where } : {}) };
}

/**
 * A read by id's filters: the parameters and status clause only. Without the selection, the vendor
 * answers for every id it has, and the stream's selection (src/connector/selection.ts) marks what billing
 * does not take: a bill announced by a webhook is skipped and counted, never mistaken for a delete.
 */
function byIdQuery(list: XeroList): Record<string, string> {
  const where = whereFor([], {}, list.whereAlso);
  return { ...list.params, ...(where ? { where } : {}) };
}

/** Ids per by-ids call: one page of the list (pageSize 100), and a URL of about 4 KB of GUIDs. */
const IDS_PER_CALL = 100;

/**
 * A read of records by id (a repair, a webhook's announced read). `IDs`: `GET /Invoices?IDs=a,b,c` (and
 * `/Contacts`), with every status asked for (so a DELETED one comes back as a delete) but not the
 * selection (byIdQuery) and `page=1` (line items only come
 * with `page`), 100 ids a call (https://developer.xero.com/documentation/api/accounting/invoices#get-invoices,
 * https://developer.xero.com/documentation/api/accounting/contacts#get-contacts). `single`:
 * `GET /CreditNotes/{CreditNoteID}` per id (https://developer.xero.com/documentation/api/accounting/creditnotes#get-creditnotes).
 * An id the source does not have is absent from the answer (or a 404): not yielded.
 */
async function* readByIds<Raw extends XeroRaw>(
  ctx: ReadContext<Settings>,
  list: XeroList,
  stream: PagedStream<Raw>,
  ids: readonly string[],
): AsyncGenerator<RawRow<Raw>[]> {
  const endpoint = `GET /${list.path}`;
  const rowsOf = (body: Record<string, unknown>, wanted: (id: string) => boolean) =>
    ((body[list.path] ?? []) as Raw[])
      .map((raw) => ({ id: stream.idOf(raw), row: rowOf(raw, stream.idOf(raw), endpoint) }))
      .filter((r) => wanted(r.id))
      .map((r) => r.row);
  if (list.byIds === 'IDs') {
    for (let i = 0; i < ids.length; i += IDS_PER_CALL) {
      const chunk = ids.slice(i, i + IDS_PER_CALL);
      const body = await ctx.http.request({
        path: list.path,
        endpoint,
        query: { ...byIdQuery(list), IDs: chunk.join(','), page: 1, pageSize: IDS_PER_CALL },
        schema: list.schema,
        signal: ctx.signal,
      });
      const wanted = new Set(chunk);
      yield rowsOf(body, (id) => wanted.has(id));
    }
    return;
  }
  for (const id of ids) {
    try {
      const body = await ctx.http.request({
        path: `${list.path}/${encodeURIComponent(id)}`,
        endpoint: `${endpoint}/{id}`,
        schema: list.schema,
        signal: ctx.signal,
      });
      yield rowsOf(body, (found) => found === id);
    } catch (err) {
      if (err instanceof RejectedError && err.status === 404) {
        yield [];
        continue;
      }
      throw err;
    }
  }
}
