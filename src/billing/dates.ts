import type { InvoiceListParams, CustomerSearchParams, LifecycleStatus } from './schemas/index.js';

/**
 * Date helpers for the listing semantics of the interface:
 * - invoice listing with UPDATED_AT / CREATED_AT compares the date part, so the end day is whole-day
 *   inclusive: pass the last day you want;
 * - customer search's update range is a raw `<=` against a timestamp, so the following day must be
 *   passed to include the whole end day.
 */

const DAY_MS = 86_400_000;

/** YYYY-MM-DD of an instant, in UTC. */
export function utcDate(instant: Date | number | string): string {
  return new Date(instant).toISOString().slice(0, 10);
}

/** Calendar arithmetic on YYYY-MM-DD, in UTC (no DST surprises). */
export function addDays(date: string, days: number): string {
  return utcDate(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS);
}

/** Every lifecycle status the listing can yield. The default changed once (see the interface's
 * Versioning); callers that need a set pass it explicitly. */
export const VISIBLE_LIFECYCLE_STATUSES: readonly LifecycleStatus[] = ['DRAFT', 'FINALIZED', 'VOIDED'];

/** Invoice listing params for records updated on the days `from`..`to`, both inclusive. */
export function updatedBetween(
  from: string,
  to: string,
  lifecycleStatuses: readonly LifecycleStatus[] = VISIBLE_LIFECYCLE_STATUSES,
): Pick<InvoiceListParams, 'dateType' | 'startDate' | 'endDate' | 'lifecycleStatuses'> {
  return { dateType: 'UPDATED_AT', startDate: from, endDate: to, lifecycleStatuses: [...lifecycleStatuses] };
}

/** Customer search params for customers updated on the days `from`..`to`, both inclusive. */
export function customerUpdatedBetween(
  from: string,
  to: string,
): Pick<CustomerSearchParams, 'updatedAtStart' | 'updatedAtEnd'> {
  return { updatedAtStart: from, updatedAtEnd: addDays(to, 1) };
}

/** Splits [from, to] (inclusive days) into consecutive windows of at most `days` days. */
export function dayWindows(from: string, to: string, days: number): Array<{ from: string; to: string }> {
  if (days < 1) throw new RangeError('days must be at least 1');
  const out: Array<{ from: string; to: string }> = [];
  for (let start = from; start <= to; start = addDays(start, days)) {
    const end = addDays(start, days - 1);
    out.push({ from: start, to: end < to ? end : to });
  }
  return out;
}
