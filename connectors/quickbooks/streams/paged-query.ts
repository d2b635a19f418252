import { z } from 'zod';
import type { ReadContext } from '../../../src/connector/types.js';
import { DataContractError } from '../../../src/errors/index.js';
import { parseTimestamp } from '../../../src/mapping/index.js';
import { QboId } from '../schemas.js';
import { MAX_RESULTS, selectStatement, timestampLiteral } from './query.js';
import { runQuery } from './run-query.js';

/**
 * Reads every record of a QBO entity whose timestamp field (MetaData.LastUpdatedTime, or CreateTime for
 * id listings) is at or after `from`, in timestamp order, without missing any at page edges, at
 * same-second boundaries, or when records change during the read.
 *
 * Why not plain STARTPOSITION paging: QBO pages by offset over `ORDERBY MetaData.LastUpdatedTime`. If a
 * record on an already-read page is edited mid-read, it jumps to the end of the ordered set, every later
 * record shifts one position earlier, and the record that sat at the next page's first offset is skipped
 * (trap 5). So the offset is reset at every page: the next statement starts again at `>=` the last
 * timestamp seen (keyset paging), STARTPOSITION 1, and the rows of that last second that were already
 * handed out are dropped by Id+SyncToken (trap 2: many records share a second, and `>=` re-reads them).
 * An edited record gets a later timestamp, so it is read again (as its new version) further on; records
 * that did not move keep their place after the re-query's lower bound. Nothing is skipped.
 *
 * The one place an offset remains: a single second holding more rows than a page (a bulk import). Then
 * the lower bound cannot move, and paging walks that second with STARTPOSITION, overlapping each step by
 * a tenth of a page: an edit that moves k already-read rows of that second out of it shifts the rest
 * back by k, which the overlap re-reads as long as k stays below it per page; de-duplication drops the
 * repeats.
 *
 * `until` bounds the read from above (records newer than now − settle delay wait for the next run), so
 * the set being paged only loses rows (edited ones, which the next run reads) and never gains any.
 *
 * Each yielded page carries `cursor` = the last row's timestamp (UTC ISO), never beyond: every row before
 * it has been handed out, so the pipeline may checkpoint after the page (the stream is sorted).
 */
export const PagedRow = z.looseObject({
  Id: QboId,
  SyncToken: QboId.optional(),
  MetaData: z.looseObject({ CreateTime: z.string().optional(), LastUpdatedTime: z.string().optional() }),
});
export type PagedRow = z.infer<typeof PagedRow>;

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
  row: PagedRow;
  /** The row's timestamp as UTC ISO. */
  at: string;
}

export interface PagedResult {
  rows: TimestampedRow[];
  cursor: string | null;
}

export async function* readByTimestamp(ctx: Pick<ReadContext, 'http' | 'signal'>, read: PagedRead): AsyncGenerator<PagedResult> {
  const field = `MetaData.${read.field}`;
  const pageSize = Math.min(MAX_RESULTS, read.pageSize);
  const overlap = Math.min(100, Math.floor(pageSize / 10));
  let lower = read.from;
  let start = 1;
  let seen = new Set<string>();
  for (;;) {
    const where = [...(read.filters ?? [])];
    if (lower) where.push(`${field} >= ${timestampLiteral(lower)}`);
    if (read.until) where.push(`${field} <= ${timestampLiteral(read.until)}`);
    const statement = selectStatement({
      entity: read.entity,
      select: read.select ?? '*',
      where,
      orderBy: `${field} ASC`,
      startPosition: start,
      maxResults: pageSize,
    });
    // https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/data-queries
    const { rows } = await runQuery(ctx, read.entity, statement, PagedRow);
    const stamped = rows.map((row) => ({ row, at: timestampOf(row, read.field, read.entity) }));
    const fresh = stamped.filter((r) => !seen.has(keyOf(r.row)));
    const last = stamped[stamped.length - 1]?.at;
    yield { rows: fresh, cursor: last ?? lower };
    if (rows.length < pageSize || last === undefined) return;
    if (lower === null || seconds(last) > seconds(lower)) {
      // Keyset step: restart at the last second seen; its rows already handed out are skipped by key.
      lower = last;
      start = 1;
      seen = new Set(stamped.filter((r) => seconds(r.at) === seconds(last)).map((r) => keyOf(r.row)));
    } else {
      // A whole page within one second: walk it by offset, overlapping (see above).
      for (const r of stamped) seen.add(keyOf(r.row));
      start += rows.length - overlap;
    }
  }
}

function keyOf(row: PagedRow): string {
  return `${row.Id}:${row.SyncToken ?? ''}`;
}

function seconds(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000);
}

function timestampOf(row: PagedRow, field: PagedRead['field'], entity: string): string {
  const parsed = parseTimestamp(row.MetaData[field], { field: `${entity}.MetaData.${field}` });
  if (!parsed.ok) {
    // Without its timestamp a row cannot be placed in the read: stop rather than risk skipping records.
    throw new DataContractError(`quickbooks ${entity} ${row.Id}: ${parsed.message}`, { source: 'quickbooks', operation: `GET /query ${entity}` });
  }
  return parsed.value;
}
