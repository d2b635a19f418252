import type { z } from 'zod';
import type { ReadContext } from '../../../src/connector/types.js';
import { formatWithOffset } from '../../../src/mapping/index.js';
import { entityRows, qboQueryResponse } from '../schemas.js';

/**
 * QuickBooks' query language and the one query call (this connector only: the other vendors page REST
 * lists). https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/data-queries
 *
 *   SELECT * | count(*) | f1, f2 FROM <Entity> [WHERE a op v AND …] [ORDERBY f [ASC|DESC]]
 *   [STARTPOSITION n] [MAXRESULTS m ≤ 1000]
 *
 * - Entity names are case-sensitive; one entity per statement; no OR (use IN or separate statements).
 * - String values in single quotes, an embedded `'` escaped as `\'` (and `\` as `\\`; README.md,
 *   "Limitations").
 * - Timestamps are sent with an explicit offset (UTC, `+00:00`), whole seconds, truncated: as a `>=`
 *   lower bound that can only move earlier, so records stamped in the cursor's second are read again,
 *   never skipped.
 * The client URL-encodes the whole statement (`?query=…`).
 */
export const MAX_RESULTS = 1000;

export function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** An instant as a QBO timestamp literal: '2025-02-10T04:49:47+00:00'. */
export function timestampLiteral(instant: string | Date): string {
  return quote(formatWithOffset(instant, 0, 'extended'));
}

/** `Id IN ('1', '2')`, ids quoted (QBO ids are strings). */
export function inList(field: string, values: readonly string[]): string {
  return `${field} IN (${values.map(quote).join(', ')})`;
}

export interface SelectOptions {
  entity: string;
  /** `*` (default), `count(*)` or a field list. */
  select?: string;
  /** Conditions joined with AND (QBO has no OR). */
  where?: readonly string[];
  orderBy?: string;
  startPosition?: number;
  maxResults?: number;
}

export function selectStatement(o: SelectOptions): string {
  const parts = [`SELECT ${o.select ?? '*'} FROM ${o.entity}`];
  if (o.where?.length) parts.push(`WHERE ${o.where.join(' AND ')}`);
  if (o.orderBy) parts.push(`ORDERBY ${o.orderBy}`);
  if (o.startPosition !== undefined) parts.push(`STARTPOSITION ${o.startPosition}`);
  if (o.maxResults !== undefined) {
    if (o.maxResults < 1 || o.maxResults > MAX_RESULTS) throw new RangeError(`MAXRESULTS must be 1..${MAX_RESULTS}`);
    parts.push(`MAXRESULTS ${o.maxResults}`);
  }
  return parts.join(' ');
}

/**
 * Sales transactions are read with `include=enhancedAllCustomFields`: without it QBO returns only the first
 * three string custom fields; with it, every custom field of the company, of every type
 * (https://developer.intuit.com/app/developer/qbo/docs/workflows/create-custom-fields/get-started). They
 * become tags (map/tags.ts).
 */
const CUSTOM_FIELD_ENTITIES: ReadonlySet<string> = new Set(['Invoice', 'CreditMemo']);

/**
 * One query call: `GET /v3/company/{realmId}/query?query=<statement>&minorversion=75`. Returns the
 * entity's rows ([] for the empty `QueryResponse: {}`) and the response `time`.
 */
export async function runQuery<T extends z.ZodTypeAny>(
  ctx: Pick<ReadContext, 'http' | 'signal'>,
  entity: string,
  statement: string,
  item: T,
): Promise<{ rows: z.output<T>[]; time?: string; totalCount?: number }> {
  // https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/data-queries
  const response = await ctx.http.request({
    path: 'query',
    endpoint: `GET /query ${entity}`,
    query: { query: statement, ...(CUSTOM_FIELD_ENTITIES.has(entity) ? { include: 'enhancedAllCustomFields' } : {}) },
    schema: qboQueryResponse(entity, item),
    signal: ctx.signal,
  });
  const totalCount = response.QueryResponse.totalCount;
  return {
    rows: entityRows<z.output<T>>(response, entity),
    ...(response.time === undefined ? {} : { time: response.time }),
    ...(typeof totalCount === 'number' ? { totalCount } : {}),
  };
}
