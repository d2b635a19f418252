import { compareIds } from './id-sequence.js';
import { zohoErrors } from './zoho-error.js';
import { parseZohoDate, parseZohoTimestamp } from './zoho-timestamp.js';

/**
 * Paging, sorting and filter parameters shared by Zoho list endpoints.
 * https://zoho.com/books/api/v3/pagination; parameters from https://www.zoho.com/books/api/v3/invoices/#list-invoices
 *
 * - `page` 1-based (default 1); `per_page` default 200, values above 200 are capped at 200 (and
 *   `page_context.per_page` says 200); non-integers or values < 1 → 400 code 2.
 * - `sort_column` must be one of the endpoint's allowed columns, else 400 code 2 (invoices and credit notes
 *   do not allow `last_modified_time`); `sort_order` A|D. Ties break by id ascending, so pages are stable.
 * - `filter_by` must be one of the endpoint's values; echoed as `page_context.applied_filter`.
 */
export const MAX_PER_PAGE = 200;

export interface ListSpec<T> {
  reportName: string;
  sortColumns: Record<string, (r: T) => string | number>;
  defaultSort: { column: string; order: 'A' | 'D' };
  /** `filter_by` values → predicate (undefined predicate = everything). */
  filters: Record<string, ((r: T) => boolean) | undefined>;
  defaultFilter: string;
  id: (r: T) => string;
}

export interface PageContext {
  page: number;
  per_page: number;
  has_more_page: boolean;
  report_name: string;
  applied_filter: string;
  sort_column: string;
  sort_order: 'A' | 'D';
}

function positiveInt(query: URLSearchParams, name: string, fallback: number): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw zohoErrors.invalidValue(name);
  return Number(raw);
}

/**
 * A list's records sorted per (sort column, order), kept until the store's version changes: a large
 * sandbox (1,000,000 invoices in the memory benches) then answers each page call with one scan of a sorted
 * array instead of building, filtering and sorting every record again.
 */
export class SortedListings<T> {
  private version: unknown;
  private built: readonly T[] | undefined;
  private readonly byOrder = new Map<string, readonly T[]>();

  constructor(
    private readonly currentVersion: () => unknown,
    private readonly build: () => readonly T[],
  ) {}

  sorted(column: string, order: 'A' | 'D', spec: ListSpec<T>): readonly T[] {
    const version = this.currentVersion();
    if (version !== this.version) {
      this.version = version;
      this.built = undefined;
      this.byOrder.clear();
    }
    const key = `${column}:${order}`;
    let rows = this.byOrder.get(key);
    if (!rows) {
      this.built ??= this.build();
      rows = sortRecords(this.built, column, order, spec);
      this.byOrder.set(key, rows);
    }
    return rows;
  }
}

/** Sorted by the column's key (strings case-insensitively), ties by id ascending: a total order, so pages are stable. */
function sortRecords<T>(records: readonly T[], column: string, order: 'A' | 'D', spec: ListSpec<T>): T[] {
  const key = spec.sortColumns[column]!;
  const sign = order === 'A' ? 1 : -1;
  return records
    .map((r) => {
      const k = key(r);
      return { r, k: typeof k === 'string' ? k.toLowerCase() : k, id: spec.id(r) };
    })
    .sort((a, b) => {
      if (a.k !== b.k) return (a.k < b.k ? -1 : 1) * sign;
      return compareIds(a.id, b.id);
    })
    .map((x) => x.r);
}

/** Filters (`where` plus `filter_by`), sorts and pages `records` (an array, or its sorted listings). */
export function listPage<T>(
  records: readonly T[] | SortedListings<T>,
  query: URLSearchParams,
  spec: ListSpec<T>,
  where: (r: T) => boolean = () => true,
): { rows: T[]; page_context: PageContext } {
  const page = positiveInt(query, 'page', 1);
  const perPage = Math.min(positiveInt(query, 'per_page', MAX_PER_PAGE), MAX_PER_PAGE);
  const column = query.get('sort_column') || spec.defaultSort.column;
  if (!spec.sortColumns[column]) throw zohoErrors.invalidValue('sort_column');
  const order = (query.get('sort_order') || spec.defaultSort.order).toUpperCase();
  if (order !== 'A' && order !== 'D') throw zohoErrors.invalidValue('sort_order');
  const filterBy = query.get('filter_by') || spec.defaultFilter;
  if (!(filterBy in spec.filters)) throw zohoErrors.invalidValue('filter_by');
  const statusFilter = spec.filters[filterBy];
  const sorted =
    records instanceof SortedListings ? records.sorted(column, order, spec) : sortRecords(records, column, order, spec);
  // One scan up to the page's end, plus one match to know whether another page follows.
  const start = (page - 1) * perPage;
  const rows: T[] = [];
  let matched = 0;
  for (const r of sorted) {
    if (!where(r) || (statusFilter !== undefined && !statusFilter(r))) continue;
    if (matched >= start + perPage) {
      matched += 1;
      break;
    }
    if (matched >= start) rows.push(r);
    matched += 1;
  }
  return {
    rows,
    page_context: {
      page,
      per_page: perPage,
      has_more_page: start + perPage < matched,
      report_name: spec.reportName,
      applied_filter: filterBy,
      sort_column: column,
      sort_order: order,
    },
  };
}

/** A `yyyy-mm-dd` parameter, or 400 code 2. */
export function dateParam(query: URLSearchParams, name: string): string | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (parseZohoDate(raw) === undefined) throw zohoErrors.invalidValue(name);
  return raw;
}

/** A `yyyy-MM-ddTHH:mm:ss±hhmm` parameter as epoch ms, or 400 code 2 (e.g. an unencoded `+`). */
export function timestampParam(query: URLSearchParams, name: string, offsetMinutes: number): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  const ms = parseZohoTimestamp(raw, offsetMinutes);
  if (ms === undefined) throw zohoErrors.invalidValue(name);
  return ms;
}

/** A parameter restricted to `allowed` values, or 400 code 2. */
export function enumParam<V extends string>(
  query: URLSearchParams,
  name: string,
  allowed: readonly V[],
): V | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!(allowed as readonly string[]).includes(raw)) throw zohoErrors.invalidValue(name);
  return raw as V;
}

/**
 * Date-range predicates shared by invoices and credit notes: date, date_start|end (inclusive),
 * date_before|after (exclusive); undefined when the query names none of them (every date passes).
 */
export function dateRange(query: URLSearchParams, prefix: string): ((date: string) => boolean) | undefined {
  const exact = dateParam(query, prefix);
  const start = dateParam(query, `${prefix}_start`);
  const end = dateParam(query, `${prefix}_end`);
  const before = dateParam(query, `${prefix}_before`);
  const after = dateParam(query, `${prefix}_after`);
  if (exact === undefined && start === undefined && end === undefined && before === undefined && after === undefined)
    return undefined;
  return (d) =>
    (exact === undefined || d === exact) &&
    (start === undefined || d >= start) &&
    (end === undefined || d <= end) &&
    (before === undefined || d < before) &&
    (after === undefined || d > after);
}
