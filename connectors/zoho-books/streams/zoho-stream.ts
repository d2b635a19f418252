import { z } from 'zod';
import type { BillingBody, EntityName, MapContext, ReadContext, SourceRecord, Stream, StreamPage } from '../../../src/connector/types.js';
import { DataContractError, RejectedError } from '../../../src/errors/index.js';
import { formatZohoTimestamp, parseTimestamp, type MapResult } from '../../../src/mapping/index.js';
import { parseZohoSettings } from '../settings.js';
import { fetchLookups, fetchOrganization, offsetMinutesAt } from './lookups.js';

/**
 * One incremental Zoho stream (invoices, credit notes, customers), all read the same way:
 *
 * 1. List `GET /<entity>?last_modified_time=<cursor>` (inclusive, ≥), `sort_column=created_time&sort_order=A`,
 *    every page until `has_more_page` is false. The cursor is sent in the organisation's own offset
 *    (`2025-02-20T16:41:09+0530`, `+` URL-encoded as %2B by URLSearchParams), whole seconds rounded down,
 *    so records edited in the same second as the cursor are read again, never skipped.
 *    Zoho cannot sort invoices or credit notes by last_modified_time, so no stream is sorted by its cursor
 *    (`isSorted: false`): the pipeline saves the checkpoint only once the read is complete, and rewinds it
 *    by its lookback window next time. Ordering by created_time keeps pages stable while records are
 *    edited during the read (an edit does not move a record); rows are also filtered client-side by
 *    the cursor, in case the server ignores the filter (the OpenAPI does not document it for credit notes
 *    and contacts).
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
export type ZohoStreamState = { cursor: string | null };

export const ZohoStreamState = z.strictObject({ cursor: z.string().nullable() });

export interface ZohoStreamSpec {
  name: EntityName;
  /** List path and the list's array key: "invoices", "creditnotes", "contacts". */
  path: 'invoices' | 'creditnotes' | 'contacts';
  primaryKey: 'invoice_id' | 'creditnote_id' | 'contact_id';
  /** Detail response key: "invoice", "creditnote", "contact". */
  detailKey: 'invoice' | 'creditnote' | 'contact';
  listSchema: z.ZodType<Record<string, unknown>>;
  detailSchema: z.ZodType<Record<string, unknown>>;
  /** Extra list parameters (contacts: contact_type=customer). */
  listQuery?: Record<string, string>;
  supportsWindow: boolean;
  map(record: SourceRecord<Record<string, unknown>>, ctx: MapContext): MapResult<BillingBody>;
  /** The mapper reads tax settings (documents do; contacts do not, so they skip those calls). */
  needsTaxes: boolean;
}

type Row = Record<string, unknown> & { last_modified_time?: string | null; status?: string | null };

function instant(raw: unknown): number | undefined {
  const r = parseTimestamp(raw);
  return r.ok ? Date.parse(r.value) : undefined;
}

async function* listPages(ctx: ReadContext, spec: ZohoStreamSpec, query: Record<string, string | number>): AsyncGenerator<Row[]> {
  for (let page = 1; ; page++) {
    const res = (await ctx.http.request({
      path: spec.path,
      endpoint: `GET /${spec.path}`,
      query: { ...spec.listQuery, ...query, page },
      schema: spec.listSchema,
      signal: ctx.signal,
    })) as Record<string, unknown> & { page_context?: { has_more_page?: boolean } };
    const rows = (res[spec.path] ?? []) as Row[];
    yield rows;
    if (!res.page_context?.has_more_page || rows.length === 0) return;
  }
}

/** Maps over `items` with at most `limit` calls in flight, keeping order; after a failure no new call starts. */
async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed) {
      const i = next++;
      try {
        out[i] = await fn(items[i]!);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

async function fetchDetail(ctx: ReadContext, spec: ZohoStreamSpec, row: Row): Promise<SourceRecord<Record<string, unknown>> | undefined> {
  const id = String(row[spec.primaryKey]);
  let detail: Record<string, unknown>;
  try {
    const res = (await ctx.http.request({
      path: `${spec.path}/${encodeURIComponent(id)}`,
      endpoint: `GET /${spec.path}/{id}`,
      schema: spec.detailSchema,
      signal: ctx.signal,
    })) as Record<string, Record<string, unknown>>;
    detail = res[spec.detailKey]!;
  } catch (err) {
    if (err instanceof RejectedError && err.status === 404) {
      ctx.logger.info({ entity: spec.name, erpId: id }, 'record deleted between list and detail; skipped');
      return undefined;
    }
    throw err;
  }
  // The version is the latest modification either response shows (credit-note details call it updated_time).
  const candidates = [row.last_modified_time, detail.last_modified_time, detail.updated_time].map(instant).filter((v): v is number => v !== undefined);
  let version: string;
  if (candidates.length > 0) {
    version = new Date(Math.max(...candidates)).toISOString();
  } else {
    version = ctx.until.toISOString();
    ctx.logger.warn({ entity: spec.name, erpId: id }, 'record has no readable last_modified_time; versioned at the read bound');
  }
  const status = typeof detail.status === 'string' ? detail.status : (row.status ?? undefined);
  return { id, version, ...(status ? { status } : {}), raw: detail };
}

export function zohoStream(spec: ZohoStreamSpec): Stream<Record<string, unknown>, ZohoStreamState> {
  return {
    name: spec.name,
    primaryKey: spec.primaryKey,
    cursorField: 'last_modified_time',
    isSorted: false,
    state: ZohoStreamState,
    supportsWindow: spec.supportsWindow,
    initialState: (from) => ({ cursor: from ?? null }),
    lookups: async (ctx) => (spec.needsTaxes ? fetchLookups(ctx) : {}),
    map: spec.map,

    /** Every id that exists now, page by page: Zoho hard-deletes without a feed, so reconciliation diffs ids. */
    async *listIds(ctx: ReadContext): AsyncIterable<string[]> {
      const settings = parseZohoSettings(ctx.settings);
      for await (const rows of listPages(ctx, spec, { sort_column: 'created_time', sort_order: 'A', per_page: settings.pageSize })) {
        yield rows.map((r) => String(r[spec.primaryKey]));
      }
    },

    async *read(ctx: ReadContext, state: ZohoStreamState): AsyncIterable<StreamPage<Record<string, unknown>, ZohoStreamState>> {
      const settings = parseZohoSettings(ctx.settings);
      const cursorMs = state.cursor === null ? undefined : Date.parse(state.cursor);
      if (cursorMs !== undefined && Number.isNaN(cursorMs)) {
        throw new DataContractError(`zoho-books ${spec.name}: checkpoint cursor ${JSON.stringify(state.cursor)} is not an instant`, { source: 'zoho-books' });
      }
      const untilMs = ctx.until.getTime();
      const query: Record<string, string | number> = { sort_column: 'created_time', sort_order: 'A', per_page: settings.pageSize };
      if (cursorMs !== undefined) {
        const org = await fetchOrganization(ctx);
        const at = new Date(cursorMs);
        const offset = org.timeZone ? offsetMinutesAt(at, org.timeZone) : undefined;
        if (offset === undefined) ctx.logger.warn({ timeZone: org.timeZone }, 'organisation time zone unknown; cursor sent in UTC (+0000)');
        query.last_modified_time = formatZohoTimestamp(at, offset ?? 0);
      }
      if (ctx.window && spec.supportsWindow) {
        query.date_start = ctx.window.from;
        query.date_end = ctx.window.to;
      }
      // Cursor compared at whole seconds, as Zoho does: ms are dropped from the lower bound.
      const lowerMs = cursorMs === undefined ? undefined : Math.floor(cursorMs / 1000) * 1000;
      const wanted = (row: Row): boolean => {
        const at = instant(row.last_modified_time);
        if (at === undefined) return true;
        return (lowerMs === undefined || at >= lowerMs) && at <= untilMs;
      };
      const seen = new Set<string>();
      const take = async (rows: Row[]) => {
        const fresh = rows.filter((r) => !seen.has(String(r[spec.primaryKey])) && wanted(r));
        for (const r of fresh) seen.add(String(r[spec.primaryKey]));
        const records = await pool(fresh, settings.detailConcurrency, (r) => fetchDetail(ctx, spec, r));
        return records.filter((r): r is SourceRecord<Record<string, unknown>> => r !== undefined);
      };

      let pages = 0;
      for await (const rows of listPages(ctx, spec, query)) {
        pages++;
        yield { records: await take(rows), state };
      }
      if (pages > 1) {
        const missed: Row[] = [];
        for await (const rows of listPages(ctx, spec, query)) missed.push(...rows.filter((r) => !seen.has(String(r[spec.primaryKey])) && wanted(r)));
        if (missed.length > 0) {
          ctx.logger.info({ entity: spec.name, count: missed.length }, 'second listing pass found rows the first pass did not see');
          yield { records: await take(missed), state };
        }
      }
    },
  };
}
