import type { SelectionRow } from '../../../src/connector/selection.js';
import type { ReadContext } from '../../../src/connector/types.js';

/**
 * Xero's `where` filter, a C#-like expression the client URL-encodes
 * (https://developer.xero.com/documentation/api/accounting/requests-and-responses). Documents are filtered by type (the endpoints also return bills) and, for a backfill window,
 * by document date: `Date>=DateTime(2025,02,01) AND Date<=DateTime(2025,02,28)` (whole days, inclusive).
 * No other connector has a query language of this shape, so it lives here.
 */
export function dateTimeLiteral(day: string): string {
  const [y, m, d] = day.split('-');
  return `DateTime(${y},${m},${d})`;
}

/**
 * A list read's `where`: the stream's selection rows sent as filters (`Type=="ACCREC"`; several values
 * joined with OR), then `extra`, then the window. Undefined when there is nothing to filter by.
 */
export function whereFor(
  selection: ReadonlyArray<SelectionRow<unknown>>,
  ctx: Pick<ReadContext, 'window'>,
  extra?: string,
): string | undefined {
  const parts = selection.map((r) => {
    const one = r.takes.map((v) => `${r.field}=="${v}"`);
    return one.length === 1 ? one[0]! : `(${one.join(' OR ')})`;
  });
  if (extra) parts.push(extra);
  if (ctx.window) parts.push(`Date>=${dateTimeLiteral(ctx.window.from)}`, `Date<=${dateTimeLiteral(ctx.window.to)}`);
  return parts.length ? parts.join(' AND ') : undefined;
}

/**
 * Every status, asked for explicitly so VOIDED and DELETED documents are listed: Xero leaves DELETED
 * documents out of a list unless they are asked for (README.md, "Limitations").
 */
export const ALL_STATUSES = ['DRAFT', 'SUBMITTED', 'AUTHORISED', 'PAID', 'VOIDED', 'DELETED'] as const;
