import type { PagedStream, PagerFor, RawPage, RawRow } from '../../../src/connector/define-stream.js';
import type { ReadContext } from '../../../src/connector/types.js';
import { cursorMsOf } from '../../../src/connector/cursor-ms.js';
import { keysetPages, type KeysetSource } from '../../../src/connector/keyset-pager.js';
import { DataContractError } from '../../../src/errors/index.js';
import { parseTimestamp } from '../../../src/mapping/index.js';
import { QboIdRow, QboPagedRow } from '../schemas.js';
import type { Settings } from '../settings.js';
import { cdcSince, deletedRow, readCdcDeletes } from './cdc.js';
import { inList, MAX_RESULTS, quote, runQuery, selectStatement, timestampLiteral } from './query.js';
import type { State } from './state.js';

/**
 * The one QuickBooks read, used by every stream (queries:
 * https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/data-queries):
 *
 * 1. Deletes first, for documents on an incremental read (no backfill window), from CDC (cdc.ts):
 *    changedSince = max(cursor, until − 30 days + 1 h). Each stub is yielded as a row whose status
 *    `Deleted` the stream declares a delete, so its SourceRecord has `deleted: true` (the pipeline marks it in the ledger; billing is never asked to delete), on pages
 *    that carry the state unchanged. First, because once the query pages below move the checkpoint, a
 *    retried read would ask CDC from the newer cursor and could miss a delete older than it. A cursor
 *    older than 30 days cannot be served by CDC: those deletes are left to reconciliation (listIds).
 * 2. Changed records by query, sorted by the cursor (readByTimestamp below):
 *      SELECT * FROM <Entity> WHERE [filters AND] MetaData.LastUpdatedTime >= '<cursor>' AND … <= '<until>'
 *        [AND TxnDate >= '<from>' AND TxnDate <= '<to>'] ORDERBY MetaData.LastUpdatedTime ASC
 *        STARTPOSITION n MAXRESULTS ≤ 1000
 *    `isSorted: true`: each page's state.cursor is its last record's LastUpdatedTime, never beyond, so
 *    the pipeline may checkpoint after every page. Queries return whole records (no detail calls); what
 *    a page refers to (its customers, an invoice's credit memos) is fetched by id per page (readByIds).
 * Voids stay in the query results (TotalAmt 0, PrivateNote "Voided") and map to a status, not a delete.
 * Records (status, lifecycle, deletes) are made from these rows by the shared engine (src/connector/define-stream.ts).
 */
export type QboRecord = Record<string, unknown>;
export type QboDoc = QboRecord & { Id: string };

export interface QboRead {
  entity: 'Invoice' | 'CreditMemo' | 'Customer';
  /** Conditions every read adds (customers: `Active IN (true, false)`). */
  filters?: readonly string[];
  /** Documents are deleted (CDC stubs, listIds); customers only become inactive, a status. */
  deletes: boolean;
  /** Attaches what the page's records refer to, before mapping. */
  enrich?(ctx: ReadContext<Settings>, docs: QboDoc[]): Promise<void>;
}

/** The pager of one QuickBooks stream (src/connector/define-stream.ts). */
export function pager(spec: QboRead): PagerFor<QboRecord, State, Settings> {
  return (stream) => ({
    isSorted: true,
    read: (ctx, state) => read(ctx, spec, stream, state),
    readByIds: (ctx, ids) => readRecordsByIds(ctx, spec, ids),
    ...(spec.deletes ? { listIds: (ctx: ReadContext<Settings>) => listIds(ctx, spec.entity) } : {}),
  });
}

/**
 * A repair: the records themselves by id, `SELECT * FROM <Entity> WHERE Id IN (…)` (100 ids a query,
 * readByIds below; https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/data-queries),
 * enriched like a read's page. A deleted record is absent from query results (its delete is a CDC stub),
 * so it is simply not yielded. QuickBooks invoices have no draft state in the API: nothing is `draft`.
 */
async function* readRecordsByIds(
  ctx: ReadContext<Settings>,
  spec: QboRead,
  ids: readonly string[],
): AsyncGenerator<RawRow<QboRecord>[]> {
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
    const found = await readByIds(ctx, spec.entity, ids.slice(i, i + IDS_PER_QUERY), spec.filters);
    const docs = [...found.values()] as QboDoc[];
    if (docs.length && spec.enrich) await spec.enrich(ctx, docs);
    yield docs.map((d) => {
      const at = parseTimestamp((d.MetaData as { LastUpdatedTime?: unknown } | undefined)?.LastUpdatedTime, {
        field: `${spec.entity}.MetaData.LastUpdatedTime`,
      });
      if (!at.ok)
        throw new DataContractError(`quickbooks ${spec.entity} ${d.Id}: ${at.message}`, {
          source: 'quickbooks',
          operation: `GET /query ${spec.entity}`,
        });
      return { raw: d, version: at.value };
    });
  }
}

async function* read(
  ctx: ReadContext<Settings>,
  spec: QboRead,
  stream: PagedStream<QboRecord>,
  state: State,
): AsyncGenerator<RawPage<QboRecord, State>> {
  // Both the CDC read and the query bound their reads by the cursor: an unreadable one stops here.
  cursorMsOf(state.cursor, { source: 'quickbooks', operation: `GET /query ${spec.entity}` });
  if (spec.deletes && !ctx.window) {
    const { since, clipped } = cdcSince(state.cursor, ctx.until);
    if (clipped) {
      ctx.logger.warn(
        { entity: spec.entity, cursor: state.cursor, cdcFrom: since.toISOString() },
        'cursor older than the 30-day CDC window: earlier deletes are left to reconciliation',
      );
    }
    for await (const deletes of readCdcDeletes(ctx, [spec.entity], since)) {
      yield { rows: deletes.map(deletedRow), state: { ...state } };
    }
  }
  const filters = [...(spec.filters ?? [])];
  if (ctx.window && stream.supportsWindow)
    filters.push(`TxnDate >= ${quote(ctx.window.from)}`, `TxnDate <= ${quote(ctx.window.to)}`);
  const paged = {
    entity: spec.entity,
    field: 'LastUpdatedTime' as const,
    filters,
    pageSize: ctx.settings.pageSize,
    from: state.cursor,
    until: ctx.until,
  };
  for await (const page of readByTimestamp(ctx, paged)) {
    const docs = page.rows.map((r) => r.row as QboDoc);
    if (docs.length && spec.enrich) await spec.enrich(ctx, docs);
    yield { rows: page.rows.map((r, i) => ({ raw: docs[i]!, version: r.at })), state: { cursor: page.cursor } };
  }
}

/**
 * Every id of an entity that exists now, for reconciliation's id diff: QBO shows deletes only through
 * CDC, and only for 30 days; older deletes are found by listing ids.
 *   SELECT Id, MetaData.CreateTime FROM Invoice WHERE MetaData.CreateTime >= … ORDERBY MetaData.CreateTime
 * A field list rather than `*` keeps pages small (Intuit may return whole records instead, which works
 * the same; README.md, "Limitations"). Paged by CreateTime, which never changes, with the same keyset
 * re-query as the reads: a delete during the listing cannot shift a live id out of view, which with plain
 * offsets would make an existing invoice look deleted.
 */
async function* listIds(ctx: ReadContext<Settings>, entity: string): AsyncGenerator<string[]> {
  const paged = {
    entity,
    select: 'Id, MetaData.CreateTime',
    field: 'CreateTime' as const,
    pageSize: ctx.settings.pageSize,
    from: null,
  };
  for await (const page of readByTimestamp(ctx, paged)) {
    if (page.rows.length) yield page.rows.map((r) => r.row.Id);
  }
}

export interface PagedRead {
  entity: string;
  /** `*` or a field list (id listings). */
  select?: string;
  /** Which MetaData timestamp orders and bounds the read. */
  field: 'LastUpdatedTime' | 'CreateTime';
  /** Extra AND conditions (windows, `Active IN (true, false)`). */
  filters?: readonly string[];
  pageSize: number;
  /** Inclusive lower bound (UTC ISO), null = from the beginning. */
  from: string | null;
  /** Inclusive upper bound. */
  until?: Date;
}

export interface TimestampedRow {
  row: QboPagedRow;
  /** The row's timestamp as UTC ISO. */
  at: string;
}

/**
 * Reads every record of an entity whose timestamp field (MetaData.LastUpdatedTime, or CreateTime for id
 * listings) is at or after `from`, in timestamp order, without missing any at page edges, at
 * same-second boundaries, or when records change during the read. Plain STARTPOSITION paging would skip
 * one (an edited record jumps to the end of the ordered set and the rest shift one place earlier: the
 * sandbox reproduces it, test/connectors/quickbooks/streams/invoices.test.ts), so the paging is the shared
 * keyset pager (src/connector/keyset-pager.ts, where the argument is): each full page restarts the query
 * at `>=` its last timestamp, and a single second holding more rows than a page is walked by STARTPOSITION
 * with overlapping, checked pages. Repeats are dropped by Id+SyncToken.
 *
 * QuickBooks' part: the statement (a `>=` bound in whole seconds, truncated, so it can only reach back;
 * `<= until`, so the set being paged only loses rows, edited ones, which the next run reads), STARTPOSITION
 * (1-based) and MAXRESULTS. Each yielded page carries `cursor` = the newest timestamp handed out (UTC ISO),
 * never beyond a row not yet handed out: the pipeline may checkpoint after the page.
 */
export async function* readByTimestamp(
  ctx: Pick<ReadContext, 'http' | 'signal'>,
  read: PagedRead,
): AsyncGenerator<{ rows: TimestampedRow[]; cursor: string | null }> {
  const field = `MetaData.${read.field}`;
  const pageSize = Math.min(MAX_RESULTS, read.pageSize);
  const source: KeysetSource<TimestampedRow & { ms: number }> = {
    pageSize,
    maxPageSize: pageSize,
    where: { source: 'quickbooks', operation: `GET /query ${read.entity}` },
    // Timestamps are whole seconds, and a bound is sent truncated to its second.
    resolutionMs: 1000,
    lowerBound: (ms) => Math.floor(ms / 1000) * 1000,
    timeOf: (r) => r.ms,
    keyOf: (r) => `${r.row.Id}:${r.row.SyncToken ?? ''}`,
    fetch: async ({ since, offset, limit }) => {
      const where = [...(read.filters ?? [])];
      if (since !== undefined) where.push(`${field} >= ${timestampLiteral(new Date(since))}`);
      if (read.until) where.push(`${field} <= ${timestampLiteral(read.until)}`);
      const statement = selectStatement({
        entity: read.entity,
        select: read.select ?? '*',
        where,
        orderBy: `${field} ASC`,
        startPosition: offset + 1,
        maxResults: limit,
      });
      const { rows } = await runQuery(ctx, read.entity, statement, QboPagedRow);
      const records = rows.map((row) => {
        const at = timestampOf(row, read.field, read.entity);
        return { row, at, ms: Date.parse(at) };
      });
      return { records, offset, more: rows.length >= limit };
    },
  };
  const from = read.from === null ? undefined : Date.parse(read.from);
  for await (const page of keysetPages(source, from, read.until?.getTime())) {
    const cursor =
      page.cursor === undefined ? null : page.cursor === from ? read.from : new Date(page.cursor).toISOString();
    yield { rows: page.records.map(({ row, at }) => ({ row, at })), cursor };
  }
}

function timestampOf(row: QboPagedRow, field: PagedRead['field'], entity: string): string {
  const parsed = parseTimestamp(row.MetaData[field], { field: `${entity}.MetaData.${field}` });
  if (!parsed.ok) {
    // Without its timestamp a row cannot be placed in the read: stop rather than risk skipping records.
    throw new DataContractError(`quickbooks ${entity} ${row.Id}: ${parsed.message}`, {
      source: 'quickbooks',
      operation: `GET /query ${entity}`,
    });
  }
  return parsed.value;
}

/** Ids per query: keeps the URL short. */
const IDS_PER_QUERY = 100;

/**
 * The detail reads of this connector: records of `entity` by id (`Id IN (…)`, 100 ids a query), kept raw
 * (only Id is checked: the mapper validates them, so one odd record fails alone). A record not found is
 * simply absent from the map.
 */
export async function readByIds(
  ctx: Pick<ReadContext, 'http' | 'signal'>,
  entity: string,
  ids: readonly string[],
  filters: readonly string[] = [],
): Promise<Map<string, QboRecord>> {
  const found = new Map<string, QboRecord>();
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
    const chunk = ids.slice(i, i + IDS_PER_QUERY);
    const statement = selectStatement({ entity, where: [inList('Id', chunk), ...filters], maxResults: MAX_RESULTS });
    // https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/data-queries
    const { rows } = await runQuery(ctx, entity, statement, QboIdRow);
    for (const row of rows) found.set(row.Id, row);
  }
  return found;
}
