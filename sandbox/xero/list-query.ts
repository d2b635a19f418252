import { evaluateWhere, mentionsField, parseWhere, WhereParseError, type WhereExpr } from './where-filter.js';
import { parseMsDate } from './xero-date.js';

/**
 * The list semantics of GET /Invoices, /CreditNotes and /Contacts
 * (https://developer.xero.com/documentation/api/accounting/invoices):
 * - `If-Modified-Since` (UTC; `2009-11-12T00:00:00`, with or without `Z`/offset, or an HTTP-date) against
 *   UpdatedDateUTC. Mode 'after' (default) is HTTP's "modified after", compared at whole seconds, so a
 *   record changed within the header's own second is NOT returned — the harshest reading, which a
 *   connector must survive; 'at-or-after' is the lenient one (ms precision, inclusive).
 * - `where`, `Statuses` (invoices only), `includeArchived` (contacts): DELETED documents and ARCHIVED
 *   contacts are left out unless asked for (Xero's documentation leaves the default open; we take the
 *   strict side so a connector has to ask explicitly).
 * - `IDs` (invoices, contacts): only the records with those ids, comma-separated.
 * - `order` ("UpdatedDateUTC ASC", "Date DESC", comma-separated); default: insertion order. Ties keep
 *   insertion order.
 * - `page` (1-based) + `pageSize` (1..1000, default 100) → `pagination`; without `page`, everything in one
 *   response, documents in summary form (no LineItems). Every page is evaluated afresh against the current
 *   data, so records that change between page requests shift positions, as on the real API.
 */
export type IfModifiedSinceMode = 'after' | 'at-or-after';

export class ListQueryError extends Error {
  constructor(
    message: string,
    readonly kind: 'validation' | 'query-parse',
  ) {
    super(message);
  }
}

export interface ListOptions {
  query: URLSearchParams;
  ifModifiedSince: string | undefined;
  mode: IfModifiedSinceMode;
  statusField: 'Status' | 'ContactStatus';
  /** Statuses hidden unless requested. */
  hiddenByDefault: string;
  supportsStatuses: boolean;
  supportsIncludeArchived: boolean;
  /** Drop LineItems when not paged. */
  summaryWithoutPage: boolean;
  /** The record's id field when the endpoint takes `IDs` (a comma-separated list; invoices and contacts). */
  idField?: string;
}

export interface ListResult<T> {
  items: T[];
  pagination?: { page: number; pageSize: number; pageCount: number; itemCount: number };
}

export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 100;

/** If-Modified-Since → epoch ms; undefined when absent; throws on garbage. */
export function parseIfModifiedSince(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  const iso = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)(Z|[+-]\d{2}:?\d{2})?$/.exec(v);
  let ms: number;
  if (iso) {
    const zone = iso[2] === undefined ? 'Z' : iso[2].length === 5 ? `${iso[2].slice(0, 3)}:${iso[2].slice(3)}` : iso[2];
    ms = Date.parse(`${iso[1]}${zone}`);
  } else {
    ms = /[A-Za-z]{3},/.test(v) ? Date.parse(v) : NaN;
  }
  if (Number.isNaN(ms))
    throw new ListQueryError(`If-Modified-Since '${v.slice(0, 40)}' is not a valid date`, 'validation');
  return ms;
}

function positiveInt(raw: string | null, name: string, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (raw === null || raw === '') return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw new ListQueryError(
      `${name} must be a whole number between 1 and ${max === Number.MAX_SAFE_INTEGER ? 'any' : max}`,
      'validation',
    );
  }
  return Number(raw);
}

function compareBy(order: string | null): (a: unknown, b: unknown) => number {
  if (!order) return () => 0;
  const keys = order.split(',').map((part) => {
    const [field = '', dir = 'ASC'] = part.trim().split(/\s+/);
    if (!/^[A-Za-z.]+$/.test(field) || !/^(ASC|DESC)$/i.test(dir))
      throw new ListQueryError(`order '${order}' is not valid`, 'query-parse');
    return { field, sign: dir.toUpperCase() === 'DESC' ? -1 : 1 };
  });
  const val = (r: unknown, f: string) => {
    const v = f
      .split('.')
      .reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), r);
    return parseMsDate(v) ?? v;
  };
  return (a, b) => {
    for (const { field, sign } of keys) {
      const x = val(a, field) as string | number | undefined;
      const y = val(b, field) as string | number | undefined;
      if (x === y) continue;
      if (x === undefined) return -sign;
      if (y === undefined) return sign;
      return x < y ? -sign : sign;
    }
    return 0;
  };
}

export function listRecords<T extends { UpdatedDateUTC: string }>(all: readonly T[], o: ListOptions): ListResult<T> {
  const q = o.query;
  const ims = parseIfModifiedSince(o.ifModifiedSince);
  let where: WhereExpr | undefined;
  const whereText = q.get('where');
  if (whereText) {
    try {
      where = parseWhere(whereText);
    } catch (e) {
      if (e instanceof WhereParseError) throw new ListQueryError(e.message, 'query-parse');
      throw e;
    }
  }
  const statuses =
    o.supportsStatuses && q.get('Statuses')
      ? q
          .get('Statuses')!
          .split(',')
          .map((s) => s.trim().toUpperCase())
      : undefined;
  const includeArchived = o.supportsIncludeArchived && q.get('includeArchived')?.toLowerCase() === 'true';
  const explicitStatus =
    statuses !== undefined || (where !== undefined && mentionsField(where, o.statusField)) || includeArchived;
  const page = positiveInt(q.get('page'), 'page');
  const pageSize =
    page === undefined ? undefined : (positiveInt(q.get('pageSize'), 'pageSize', MAX_PAGE_SIZE) ?? DEFAULT_PAGE_SIZE);
  const compare = compareBy(q.get('order'));
  const idsText = o.idField ? q.get('IDs') : null;
  const ids = idsText ? new Set(idsText.split(',').map((s) => s.trim().toLowerCase())) : undefined;

  const matched = all
    .filter((r) => {
      if (ims !== undefined) {
        const updated = parseMsDate(r.UpdatedDateUTC) ?? 0;
        if (o.mode === 'after' ? Math.floor(updated / 1000) <= Math.floor(ims / 1000) : updated < ims) return false;
      }
      if (ids && !ids.has(String((r as Record<string, unknown>)[o.idField!]).toLowerCase())) return false;
      const status = (r as Record<string, unknown>)[o.statusField];
      if (!explicitStatus && status === o.hiddenByDefault) return false;
      if (statuses && !statuses.includes(String(status))) return false;
      return where === undefined || evaluateWhere(where, r);
    })
    .map((r, i) => ({ r, i }))
    .sort((a, b) => compare(a.r, b.r) || a.i - b.i)
    .map(({ r }) => r);

  const strip = (r: T): T => {
    if (!o.summaryWithoutPage || page !== undefined) return r;
    const { LineItems: _drop, ...rest } = r as T & { LineItems?: unknown };
    return rest as T;
  };
  if (page === undefined || pageSize === undefined) return { items: matched.map(strip) };
  const items = matched.slice((page - 1) * pageSize, page * pageSize);
  return {
    items,
    pagination: { page, pageSize, pageCount: Math.ceil(matched.length / pageSize), itemCount: matched.length },
  };
}
