import { parseQboInstant } from './qbo-time.js';
import { type Condition, type Query, QueryError, type Value } from './query-parser.js';

/**
 * Runs a parsed query over an entity's rows (QBO JSON) the way QBO answers it:
 * - entity names are case-sensitive; property names are not (`Metadata.LastUpdatedTime` works, as Singer
 *   uses it); a property that is not queryable on the entity → 4001 QueryValidationError (400, not empty);
 * - timestamps compare as instants (any offset), dates and strings as text, ids and amounts as numbers,
 *   references (`CustomerRef`) by their `value`;
 * - `Customer` without an `Active` condition returns active customers only ("SELECT * FROM Customer
 *   retrieves all active customers": https://developer.intuit.com/hub/blog/2017/02/08/deep-dive-sql-queries/);
 * - ordering by the ORDERBY fields, ties by Id (ascending), so paging is deterministic;
 * - STARTPOSITION is 1-based; MAXRESULTS 1..1000 (default 100), more → 4001;
 * - `QueryResponse: {}` when nothing matches (no entity key, no maxResults).
 */
type Kind = 'id' | 'string' | 'date' | 'instant' | 'number' | 'bool' | 'ref';

const DOC_FIELDS: Record<string, Kind> = {
  id: 'id',
  synctoken: 'number',
  docnumber: 'string',
  txndate: 'date',
  duedate: 'date',
  customerref: 'ref',
  'metadata.createtime': 'instant',
  'metadata.lastupdatedtime': 'instant',
  totalamt: 'number',
  balance: 'number',
};

export const QUERYABLE: Record<string, Record<string, Kind>> = {
  Invoice: DOC_FIELDS,
  CreditMemo: { ...DOC_FIELDS, remainingcredit: 'number' },
  Customer: {
    id: 'id',
    synctoken: 'number',
    displayname: 'string',
    companyname: 'string',
    givenname: 'string',
    familyname: 'string',
    active: 'bool',
    balance: 'number',
    'metadata.createtime': 'instant',
    'metadata.lastupdatedtime': 'instant',
  },
  TaxRate: { id: 'id', name: 'string', active: 'bool', 'metadata.lastupdatedtime': 'instant' },
  TaxCode: { id: 'id', name: 'string', active: 'bool', 'metadata.lastupdatedtime': 'instant' },
  CompanyInfo: { id: 'id' },
  Preferences: { id: 'id' },
};

export const MAX_RESULTS = 1000;

export interface QueryResult {
  QueryResponse: Record<string, unknown>;
}

export function executeQuery(
  q: Query,
  rows: ReadonlyArray<Record<string, unknown>>,
  offsetMinutes: number,
): QueryResult {
  const fields = QUERYABLE[q.entity];
  if (!fields)
    throw new QueryError(
      '4001',
      `QueryValidationError: Invalid entity '${q.entity}' (entity names are case-sensitive)`,
    );
  const kindOf = (field: string): Kind => {
    const kind = fields[field.toLowerCase()];
    if (!kind)
      throw new QueryError('4001', `QueryValidationError: property '${field}' is not queryable on ${q.entity}`);
    return kind;
  };
  for (const c of q.where) kindOf(c.field);
  for (const o of q.orderBy) kindOf(o.field);
  if (q.select.kind === 'fields') for (const f of q.select.fields) kindOf(f);
  if (q.maxResults !== undefined && (q.maxResults < 1 || q.maxResults > MAX_RESULTS)) {
    throw new QueryError('4001', `QueryValidationError: MAXRESULTS ${q.maxResults} is out of range 1-${MAX_RESULTS}`);
  }
  if (q.startPosition !== undefined && q.startPosition < 1)
    throw new QueryError('4001', 'QueryValidationError: STARTPOSITION must be at least 1');

  // Each row's values for the fields this query uses, read once (timestamps parse once, not per comparison).
  const used = [...new Set([...q.where.map((c) => c.field), ...q.orderBy.map((o) => o.field), 'Id'])];
  const keyed = rows.map((row) => ({
    row,
    v: new Map(used.map((f) => [f.toLowerCase(), read(row, f, kindOf(f), offsetMinutes)])),
  }));
  let matched = keyed.filter((k) =>
    q.where.every((c) => test(c, k.v.get(c.field.toLowerCase()), kindOf(c.field), offsetMinutes)),
  );
  if (q.entity === 'Customer' && !q.where.some((c) => c.field.toLowerCase() === 'active'))
    matched = matched.filter((k) => k.row.Active !== false);
  if (q.select.kind === 'count') return { QueryResponse: { totalCount: matched.length } };

  const order = [...q.orderBy, { field: 'Id', desc: false }].map((o) => ({ key: o.field.toLowerCase(), desc: o.desc }));
  const sorted = [...matched]
    .sort((a, b) => {
      for (const o of order) {
        const d = compare(a.v.get(o.key), b.v.get(o.key));
        if (d !== 0) return o.desc ? -d : d;
      }
      return 0;
    })
    .map((k) => k.row);
  const start = q.startPosition ?? 1;
  const page = sorted.slice(start - 1, start - 1 + (q.maxResults ?? 100));
  if (page.length === 0) return { QueryResponse: {} };
  const out =
    q.select.kind === 'fields' ? page.map((row) => project(row, (q.select as { fields: string[] }).fields)) : page;
  return { QueryResponse: { [q.entity]: out, startPosition: start, maxResults: page.length } };
}

/** The field's value in a row, by case-insensitive dotted path. */
function pathValue(row: Record<string, unknown>, field: string): unknown {
  let cur: unknown = row;
  for (const part of field.split('.')) {
    if (!cur || typeof cur !== 'object') return undefined;
    const obj = cur as Record<string, unknown>;
    const key = Object.keys(obj).find((k) => k.toLowerCase() === part.toLowerCase());
    cur = key === undefined ? undefined : obj[key];
  }
  return cur;
}

type Comparable = string | number | boolean | undefined;

function read(row: Record<string, unknown>, field: string, kind: Kind, offsetMinutes: number): Comparable {
  const v = pathValue(row, field);
  if (v === undefined || v === null) return undefined;
  switch (kind) {
    case 'ref':
      return String((v as { value?: unknown }).value ?? '');
    case 'instant':
      return parseQboInstant(String(v), offsetMinutes);
    case 'number':
    case 'id':
      return Number(v);
    case 'bool':
      return Boolean(v);
    default:
      return String(v);
  }
}

function literal(value: Value, kind: Kind, offsetMinutes: number): Comparable {
  switch (kind) {
    case 'instant': {
      const ms = typeof value === 'string' ? parseQboInstant(value, offsetMinutes) : undefined;
      if (ms === undefined)
        throw new QueryError('4001', `QueryValidationError: '${String(value)}' is not a valid date time`);
      return ms;
    }
    case 'id':
    case 'number':
      if (Number.isNaN(Number(value)))
        throw new QueryError('4001', `QueryValidationError: '${String(value)}' is not a number`);
      return Number(value);
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      throw new QueryError('4001', `QueryValidationError: '${String(value)}' is not a boolean`);
    default:
      return String(value);
  }
}

function compare(a: Comparable, b: Comparable): number {
  if (a === b) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  return a < b ? -1 : 1;
}

function test(c: Condition, v: Comparable, kind: Kind, offsetMinutes: number): boolean {
  if (c.op === 'IN') return c.values.some((x) => literal(x, kind, offsetMinutes) === v);
  if (c.op === 'LIKE') {
    const re = new RegExp(
      `^${c.value
        .split('%')
        .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
      'i',
    );
    return v !== undefined && re.test(String(v));
  }
  const lit = literal(c.value, kind, offsetMinutes);
  if (v === undefined) return false;
  const d = compare(v, lit);
  return c.op === '=' ? d === 0 : c.op === '<' ? d < 0 : c.op === '>' ? d > 0 : c.op === '<=' ? d <= 0 : d >= 0;
}

/** Only the listed fields, nested as QBO nests them, under the record's own key spelling. */
function project(row: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    let src: unknown = row;
    let target = out;
    const parts = f.split('.');
    parts.forEach((part, i) => {
      if (!src || typeof src !== 'object') return;
      const obj = src as Record<string, unknown>;
      const key = Object.keys(obj).find((k) => k.toLowerCase() === part.toLowerCase());
      if (key === undefined) {
        src = undefined;
        return;
      }
      if (i === parts.length - 1) target[key] = obj[key];
      else target = (target[key] ??= {}) as Record<string, unknown>;
      src = obj[key];
    });
  }
  return out;
}
