import type { ReadContext } from '../../../src/connector/types.js';

/**
 * `where` filters (reference §3.3: C#-like, URL-encoded by the client). Documents are filtered by type
 * (the endpoints also return bills) and, for a backfill window, by document date:
 * `Date>=DateTime(2025,02,01) AND Date<=DateTime(2025,02,28)` (whole days, inclusive).
 */
export function dateTimeLiteral(day: string): string {
  const [y, m, d] = day.split('-');
  return `DateTime(${y},${m},${d})`;
}

export function whereFor(type: string, ctx: ReadContext, extra?: string): string {
  const parts = [`Type=="${type}"`];
  if (extra) parts.push(extra);
  if (ctx.window) parts.push(`Date>=${dateTimeLiteral(ctx.window.from)}`, `Date<=${dateTimeLiteral(ctx.window.to)}`);
  return parts.join(' AND ');
}

/** Every status, so VOIDED and DELETED documents are seen (Xero may leave DELETED out otherwise: §3.6 VERIFY). */
export const ALL_STATUSES = ['DRAFT', 'SUBMITTED', 'AUTHORISED', 'PAID', 'VOIDED', 'DELETED'] as const;
