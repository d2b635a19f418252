/**
 * One keyset pager for vendors that list records ordered by a modification time and page by offset
 * (QuickBooks `ORDERBY MetaData.LastUpdatedTime STARTPOSITION`, Xero `order=UpdatedDateUTC` with `page`).
 * Offsets alone miss records: an edit moves a record from an already-read page to the end, everything
 * after it shifts one place earlier, and the next offset starts one record late.
 *
 * Correctness argument (what the vendor must honour, and what the pager does with it):
 *
 * | fact | why it holds |
 * |---|---|
 * | F1 records keep their relative order; new versions only join at the end | an edit stamps "now": not before any record in the window (`until` is in the past) nor before the cursor's stamp unit (`resolutionMs`) |
 * | F2 one response is one consistent, contiguous slice of the order | the vendor evaluates a page in one query |
 * | P1 "seen" is always a prefix of the current order | each page handed out starts at offset 0 of a fresh query, or holds a record already seen (F1, F2: nothing unseen lies before it) |
 * | P2 keyset step | when a full page's last time lies beyond the query's lower bound, the next query starts from that time (offset 0): what is older was seen (P1) |
 * | P3 crowded bound (a whole page in one bound granule) | walk by offset overlapping the previous page; a page with no seen record means more records left than the overlap (a gap may hide there): it is discarded and the pager steps back one stride, down to offset 0 at worst, where P1 holds trivially |
 *
 * So every record in the window that stays in it is handed out at least once (repeats are dropped by key),
 * and each page's cursor (the newest time of the seen prefix) never passes a record not yet handed out
 * (read at the vendor's stamp unit). P3 checks what an overlap alone assumes (fewer edits than the overlap
 * between two calls) and needs no re-read of the whole bound until it looks stable.
 * Termination: a keyset step raises the bound; a walk step moves the offset on by at least one record;
 * a step back needs records to have left the walked range since the last call, which a finite window
 * can only do finitely often.
 */
import { DataContractError } from '../errors/index.js';

export interface KeysetQuery {
  /** Inclusive lower bound (epoch ms) the vendor expresses as `lowerBound` does; undefined: from the start. */
  since: number | undefined;
  /** 0-based offset into the ordered result of that bound. */
  offset: number;
  limit: number;
}

export interface KeysetResponse<T> {
  records: T[];
  /** The offset the slice really starts at (≤ the one asked for: a vendor that pages by page number may start earlier). */
  offset: number;
  /** More records follow this slice. */
  more: boolean;
}

export interface KeysetSource<T> {
  /** One vendor call: records with time ≥ `lowerBound(since)`, ordered by time, the slice at `offset`. */
  fetch(query: KeysetQuery): Promise<KeysetResponse<T>>;
  /** The record's time (epoch ms), the field the vendor orders and bounds by. */
  timeOf(record: T): number;
  /** Identity of one version of a record (id with version or sync token): repeats are dropped by it. */
  keyOf(record: T): string;
  /**
   * The resolution of the vendor's time stamps (ms): 1000 when they are whole seconds, where a record edited
   * later in the cursor's own second carries a time before the cursor; 1 when they have milliseconds.
   */
  resolutionMs: number;
  /** The earliest time a query bounded at `ms` may start from (whole seconds, and any margin the vendor needs). */
  lowerBound(ms: number): number;
  pageSize: number;
  /** Names the read in errors. */
  where: { source: string; operation: string };
  /** The page a crowded bound is read with (≥ pageSize; the vendor's largest). */
  maxPageSize: number;
}

export interface KeysetPage<T> {
  /** Records not handed out before, with time in [from, until]. */
  records: T[];
  /** Every record not handed out yet has time ≥ this (epoch ms); undefined: nothing read yet from the start. */
  cursor: number | undefined;
}

/** Records re-read at each offset step of a crowded bound: a tenth of the page, 1..100. */
export function overlapOf(length: number): number {
  return Math.max(1, Math.min(100, Math.floor(length / 10)));
}

/**
 * For vendors that page by number (`page`, `pageSize`, 1-based): a page that starts at or a little before
 * `offset` (never after it, by fewer records than its number) and is at least half of `limit` long. It
 * reaches about `limit − offset / limit` records past `offset`: enough to walk a crowded bound of up to
 * roughly limit² records (a million at 1000 a page).
 */
export function pageCovering(offset: number, limit: number): { page: number; pageSize: number } {
  if (offset <= limit / 2) return { page: 1, pageSize: limit };
  const before = Math.ceil(offset / limit);
  return { page: before + 1, pageSize: Math.floor(offset / before) };
}

export async function* keysetPages<T>(
  source: KeysetSource<T>,
  from: number | undefined,
  until = Infinity,
): AsyncGenerator<KeysetPage<T>> {
  if (source.maxPageSize < 2)
    throw new RangeError('keysetPages: maxPageSize must be at least 2 (an offset walk overlaps by one record)');
  let lower = from;
  let cursor = from;
  let size = source.pageSize;
  let offset = 0;
  const seen = new Map<string, number>();
  let walkedFrom = 0;
  for (;;) {
    const bound = lower === undefined ? undefined : source.lowerBound(lower);
    const page = await source.fetch({ since: bound, offset, limit: size });
    const inWindow = page.records.filter((r) => source.timeOf(r) <= until);
    if (page.offset > 0 && !page.records.some((r) => seen.has(source.keyOf(r)))) {
      // P3: no seen record in this slice, so records before it may be unseen. Step back, never below 0.
      offset = Math.max(0, page.offset - (size - overlapOf(size)));
      walkedFrom = 0;
      continue;
    }
    if (page.offset > 0 && page.offset <= walkedFrom) {
      const { source: vendor, operation } = source.where;
      throw new DataContractError(
        `${vendor} ${operation}: cannot page past offset ${page.offset} of records sharing one time bound`,
        source.where,
      );
    }
    walkedFrom = page.offset;
    // Older than the bound's stamp unit: handed out before (an edit is stamped at or after the cursor's unit).
    const oldest = lower === undefined ? -Infinity : Math.floor(lower / source.resolutionMs) * source.resolutionMs;
    const fresh = inWindow.filter((r) => source.timeOf(r) >= oldest && !seen.has(source.keyOf(r)));
    for (const r of inWindow) seen.set(source.keyOf(r), source.timeOf(r));
    const newest = inWindow[inWindow.length - 1];
    if (newest !== undefined && (cursor === undefined || source.timeOf(newest) > cursor))
      cursor = source.timeOf(newest);
    yield { records: fresh, cursor };
    const last = page.records[page.records.length - 1];
    if (!page.more || last === undefined || source.timeOf(last) > until) return;
    if (bound === undefined || source.lowerBound(source.timeOf(last)) > bound) {
      // P2: a keyset step; what the new bound re-reads is dropped by key, older keys are forgotten.
      lower = source.timeOf(last);
      const kept = source.lowerBound(lower);
      for (const [key, time] of seen) if (time < kept) seen.delete(key);
      size = source.pageSize;
      offset = 0;
      walkedFrom = 0;
    } else if (size < source.maxPageSize) {
      // The whole page sits in one bound granule: read that bound again as one larger page first.
      size = source.maxPageSize;
      offset = 0;
      walkedFrom = 0;
    } else {
      offset = Math.max(page.offset + 1, page.offset + page.records.length - overlapOf(page.records.length));
    }
  }
}
