import type { z } from 'zod';
import type { PagedStream, PagerFor, RawPage, RawRow } from '../../../src/connector/define-stream.js';
import type { ReadContext } from '../../../src/connector/types.js';
import { cursorMsOf } from '../../../src/connector/cursor-ms.js';
import { IdSet } from '../../../src/connector/id-set.js';
import { listFilters, type Selection } from '../../../src/connector/selection.js';
import { RejectedError } from '../../../src/errors/index.js';
import type { ZohoRow } from '../schemas.js';
import type { Settings } from '../settings.js';
import { fetchOrganization } from './lookups.js';
import { cursorParam, inRange, instantOf, offsetMinutesAt, type State } from './state.js';

/**
 * One incremental Zoho stream (invoices, credit notes, customers), all read the same way:
 *
 * 1. List `GET /<entity>?last_modified_time=<cursor>` (inclusive, ≥; see state.ts for the format),
 *    `sort_column=created_time&sort_order=A`, every page until `page_context.has_more_page` is false
 *    (https://zoho.com/books/api/v3/pagination). Zoho cannot sort invoices or credit notes by
 *    last_modified_time (https://www.zoho.com/books/api/v3/invoices/), so no stream is sorted by its
 *    cursor (`isSorted: false`): the pipeline saves the checkpoint only once the read is complete, and
 *    rewinds it by its lookback window next time. Ordering by created_time keeps pages stable while
 *    records are edited during the read (an edit does not move a record); rows are also filtered
 *    client-side by the cursor, in case the server ignores the filter (Zoho's OpenAPI does not document
 *    it for credit notes and contacts).
 * 2. Rows modified after `ctx.until` are left for the next run (whose cursor starts at until − lookback).
 * 3. Lists have no line items: each listed record is fetched with `GET /<entity>/{id}` through the same
 *    client, so per-minute/per-day quotas and concurrency apply to detail calls too. A record deleted
 *    between list and detail (404) is skipped: deletes are found by `listIds` reconciliation.
 * 4. When the list had more than one page, it is listed once more (ids only) and records not seen the
 *    first time are fetched: a hard delete during the read shifts later rows one place up, which could
 *    otherwise hide a row at a page boundary.
 *
 * Window reads (backfill): invoices and credit notes filter by document date (`date_start`/`date_end`);
 * contacts have no document date and read everything.
 */
export type ZohoRecord = Record<string, unknown>;

export interface ZohoList {
  /** List path and the list's array key: "invoices", "creditnotes", "contacts". */
  path: 'invoices' | 'creditnotes' | 'contacts';
  /** Detail response key: "invoice", "creditnote", "contact". */
  detailKey: 'invoice' | 'creditnote' | 'contact';
  listSchema: z.ZodType<Record<string, unknown>>;
  detailSchema: z.ZodType<Record<string, unknown>>;
}

/**
 * What a Zoho read needs: the list, what the stream is (its name, its ids, whether it windows), and the
 * list parameters its selection sends (contacts: `contact_type=customer`).
 */
type Spec = ZohoList & PagedStream<ZohoRecord> & { listQuery: Record<string, string> };

/** A stream's selection rows as list parameters (`contact_type=customer`): Zoho's list filters take one value each. */
export function listParamsOf(selection: Selection<ZohoRecord> | undefined, name: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const row of listFilters(selection)) {
    if (row.takes.length !== 1)
      throw new TypeError(`${name}: a Zoho list filter takes one value; ${row.field} lists ${row.takes.length}`);
    query[row.field] = row.takes[0]!;
  }
  return query;
}

/** The status Zoho gives a record: the detail's, or the listed row's when the detail has none. */
export function statusOf(detail: ZohoRecord, listed?: Record<string, unknown>): string | undefined {
  if (typeof detail.status === 'string') return detail.status;
  return typeof listed?.status === 'string' ? listed.status : undefined;
}

/** The pager of one Zoho stream (src/connector/define-stream.ts): a list, then a detail GET per row. */
export function pager(list: ZohoList): PagerFor<ZohoRecord, State, Settings> {
  return (stream) => {
    const spec: Spec = { ...list, ...stream, listQuery: listParamsOf(stream.selection, stream.name) };
    return {
      isSorted: false,
      resumable: true,
      read: (ctx, state) => read(ctx, spec, state),
      readByIds: (ctx, ids) => readByIds(ctx, spec, ids),
      listIds: (ctx) => listIds(ctx, spec),
    };
  };
}

async function* listPages(
  ctx: ReadContext<Settings>,
  spec: Spec,
  query: Record<string, string | number>,
): AsyncGenerator<ZohoRow[]> {
  for (let page = 1; ; page++) {
    // https://www.zoho.com/books/api/v3/invoices/ (and the credit notes and contacts lists alike)
    const res = (await ctx.http.request({
      path: spec.path,
      endpoint: `GET /${spec.path}`,
      query: { ...spec.listQuery, ...query, page },
      schema: spec.listSchema,
      signal: ctx.signal,
    })) as Record<string, unknown> & { page_context?: { has_more_page?: boolean } };
    const rows = (res[spec.path] ?? []) as ZohoRow[];
    yield rows;
    if (!res.page_context?.has_more_page || rows.length === 0) return;
  }
}

/**
 * Maps over `items` with at most `limit` calls in flight, keeping order; after a failure no new call
 * starts, the calls in flight finish, and what they and the calls before them read is kept beside the
 * failure (`done[i]` false for an item not read).
 */
async function pool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<{ out: R[]; done: boolean[]; error?: unknown }> {
  const out: R[] = new Array(items.length);
  const done: boolean[] = new Array<boolean>(items.length).fill(false);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && !failure) {
      const i = next++;
      try {
        out[i] = await fn(items[i]!);
        done[i] = true;
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return failure ? { out, done, error: failure.error } : { out, done };
}

async function fetchDetail(
  ctx: ReadContext<Settings>,
  spec: Spec,
  row: ZohoRow,
): Promise<RawRow<ZohoRecord> | undefined> {
  return fetchById(ctx, spec, spec.idOf(row), row);
}

/** `GET /<entity>/{id}`; `row` is the listed summary when there is one. Undefined when the source has no such record (404). */
async function fetchById(
  ctx: ReadContext<Settings>,
  spec: Spec,
  id: string,
  row: ZohoRow = {},
): Promise<RawRow<ZohoRecord> | undefined> {
  let detail: ZohoRecord;
  try {
    // https://www.zoho.com/books/api/v3/invoices/ (get an invoice; credit notes and contacts alike)
    const res = (await ctx.http.request({
      path: `${spec.path}/${encodeURIComponent(id)}`,
      endpoint: `GET /${spec.path}/{id}`,
      schema: spec.detailSchema,
      signal: ctx.signal,
    })) as Record<string, ZohoRecord>;
    detail = res[spec.detailKey]!;
  } catch (err) {
    if (err instanceof RejectedError && err.status === 404) {
      ctx.logger.info({ entity: spec.name, erpId: id }, 'no such record in the source (deleted); skipped');
      return undefined;
    }
    throw err;
  }
  // The version is the latest modification either response shows (credit-note details call it updated_time).
  const candidates = [row.last_modified_time, detail.last_modified_time, detail.updated_time]
    .map(instantOf)
    .filter((v): v is number => v !== undefined);
  let version: string;
  if (candidates.length > 0) {
    version = new Date(Math.max(...candidates)).toISOString();
  } else {
    version = ctx.until.toISOString();
    ctx.logger.warn(
      { entity: spec.name, erpId: id },
      'record has no readable last_modified_time; versioned at the read bound',
    );
  }
  return { raw: detail, version, listed: row };
}

async function* read(ctx: ReadContext<Settings>, spec: Spec, state: State): AsyncIterable<RawPage<ZohoRecord, State>> {
  const cursorMs = cursorMsOf(state.cursor, { source: 'zoho-books', operation: `GET /${spec.path}` });
  const query: Record<string, string | number> = {
    sort_column: 'created_time',
    sort_order: 'A',
    per_page: ctx.settings.pageSize,
  };
  if (cursorMs !== undefined) {
    const org = await fetchOrganization(ctx);
    const offset = org.timeZone ? offsetMinutesAt(new Date(cursorMs), org.timeZone) : undefined;
    if (offset === undefined)
      ctx.logger.warn({ timeZone: org.timeZone }, 'organisation time zone unknown; cursor sent in UTC (+0000)');
    query.last_modified_time = cursorParam(cursorMs, offset);
  }
  if (ctx.window && spec.supportsWindow) {
    query.date_start = ctx.window.from;
    query.date_end = ctx.window.to;
  }
  const wanted = inRange(cursorMs, ctx.until.getTime());
  const idOf = (row: ZohoRow) => spec.idOf(row);
  // Every id this read handed out (for the pages after and the second pass): a whole first sync's worth.
  const seen = new IdSet();
  const take = async (rows: ZohoRow[]) => {
    const listed = rows.filter((r) => !seen.has(idOf(r)) && wanted(r.last_modified_time));
    for (const r of listed) seen.add(idOf(r));
    // A detail GET per row is the cost of a Zoho read: a row listed with exactly the modification time
    // of the version the pipeline holds has not changed and is not fetched (an edit gets a later second,
    // since the pipeline read the row at least its settle delay after that second). This also makes a
    // read that starts over (put back in the queue for a quota wait) cost only its list pages.
    const known = ctx.knownVersions ? await ctx.knownVersions(spec.name, listed.map(idOf)) : [];
    const fresh = listed.filter((r, i) => {
      const k = known[i];
      const at = instantOf(r.last_modified_time);
      return k === undefined || at === undefined || at !== Date.parse(k);
    });
    const { out, done, error } = await pool(fresh, ctx.settings.detailConcurrency, (r) => fetchDetail(ctx, spec, r));
    return {
      rows: out.filter((r, i): r is RawRow<ZohoRecord> => done[i]! && r !== undefined),
      knownSkipped: listed.length - fresh.length,
      error,
    };
  };
  // A read cut short mid-page (its job put back in the queue for a quota slot, or a failed call) first
  // hands over the details it read: the next start skips them as known and goes on from there, instead
  // of reading the same page's details again on every start (under a tight minute quota, for ever).
  const handOver = async function* (rows: ZohoRow[]) {
    const { error, ...page } = await take(rows);
    if (error === undefined || page.rows.length > 0 || page.knownSkipped > 0) yield { ...page, state };
    if (error !== undefined) throw error;
  };

  let pages = 0;
  for await (const rows of listPages(ctx, spec, query)) {
    pages++;
    yield* handOver(rows);
  }
  if (pages > 1) {
    const missed: ZohoRow[] = [];
    for await (const rows of listPages(ctx, spec, query))
      missed.push(...rows.filter((r) => !seen.has(idOf(r)) && wanted(r.last_modified_time)));
    if (missed.length > 0) {
      ctx.logger.info(
        { entity: spec.name, count: missed.length },
        'second listing pass found rows the first pass did not see',
      );
      yield* handOver(missed);
    }
  }
}

/**
 * A read by id (a repair, a webhook's announced read): `GET /<entity>/{id}` per id, whatever the
 * selection (a vendor contact comes back, and the stream's selection marks it not for billing) (https://www.zoho.com/books/api/v3/invoices/, and alike for credit
 * notes and contacts) — Zoho has no by-ids list with line items. One call per id, `detailConcurrency` at
 * once; a 404 leaves the id out (the source no longer has it).
 */
async function* readByIds(
  ctx: ReadContext<Settings>,
  spec: Spec,
  ids: readonly string[],
): AsyncGenerator<RawRow<ZohoRecord>[]> {
  const chunk = Math.max(1, ctx.settings.pageSize);
  for (let i = 0; i < ids.length; i += chunk) {
    const { out, done, error } = await pool(ids.slice(i, i + chunk), ctx.settings.detailConcurrency, (id) =>
      fetchById(ctx, spec, id),
    );
    const found = out.filter((r, j): r is RawRow<ZohoRecord> => done[j]! && r !== undefined);
    if (error === undefined || found.length > 0) yield found;
    if (error !== undefined) throw error;
  }
}

/** Every id that exists now, page by page: Zoho hard-deletes without a feed, so reconciliation diffs ids. */
async function* listIds(ctx: ReadContext<Settings>, spec: Spec): AsyncGenerator<string[]> {
  const query = { sort_column: 'created_time', sort_order: 'A', per_page: ctx.settings.pageSize };
  for await (const rows of listPages(ctx, spec, query)) yield rows.map(spec.idOf);
}
