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

/** Filters (`where` plus `filter_by`), sorts and pages `records`. */
export function listPage<T>(
  records: readonly T[],
  query: URLSearchParams,
  spec: ListSpec<T>,
  where: (r: T) => boolean = () => true,
): { rows: T[]; page_context: PageContext } {
  const page = positiveInt(query, 'page', 1);
  const perPage = Math.min(positiveInt(query, 'per_page', MAX_PER_PAGE), MAX_PER_PAGE);
  const column = query.get('sort_column') || spec.defaultSort.column;
  const key = spec.sortColumns[column];
  if (!key) throw zohoErrors.invalidValue('sort_column');
  const order = (query.get('sort_order') || spec.defaultSort.order).toUpperCase();
  if (order !== 'A' && order !== 'D') throw zohoErrors.invalidValue('sort_order');
  const filterBy = query.get('filter_by') || spec.defaultFilter;
  if (!(filterBy in spec.filters)) throw zohoErrors.invalidValue('filter_by');
  const statusFilter = spec.filters[filterBy];
  const sign = order === 'A' ? 1 : -1;
  const matched = records
    .filter((r) => where(r) && (statusFilter ? statusFilter(r) : true))
    .map((r) => ({ r, k: key(r) }))
    .sort((a, b) => {
      const ka = typeof a.k === 'string' ? a.k.toLowerCase() : a.k;
      const kb = typeof b.k === 'string' ? b.k.toLowerCase() : b.k;
      if (ka !== kb) return (ka < kb ? -1 : 1) * sign;
      return compareIds(spec.id(a.r), spec.id(b.r));
    })
    .map((x) => x.r);
  const start = (page - 1) * perPage;
  return {
    rows: matched.slice(start, start + perPage),
    page_context: {
      page,
      per_page: perPage,
      has_more_page: start + perPage < matched.length,
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
export function enumParam<V extends string>(query: URLSearchParams, name: string, allowed: readonly V[]): V | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!(allowed as readonly string[]).includes(raw)) throw zohoErrors.invalidValue(name);
  return raw as V;
}

/** Date-range predicates shared by invoices and credit notes: date, date_start|end (inclusive), date_before|after (exclusive). */
export function dateRange(query: URLSearchParams, prefix: string): (date: string) => boolean {
  const exact = dateParam(query, prefix);
  const start = dateParam(query, `${prefix}_start`);
  const end = dateParam(query, `${prefix}_end`);
  const before = dateParam(query, `${prefix}_before`);
  const after = dateParam(query, `${prefix}_after`);
  return (d) =>
    (exact === undefined || d === exact) &&
    (start === undefined || d >= start) &&
    (end === undefined || d <= end) &&
    (before === undefined || d < before) &&
    (after === undefined || d > after);
}
