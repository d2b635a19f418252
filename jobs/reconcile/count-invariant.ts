import { dayOf } from '../../src/pipeline/ledger-date-index.js';
import type { DriftReport } from './drift.js';
import {
  billingCount,
  billingGroup,
  diffInvoiceDateWindow,
  type DayWindow,
  type HistoryHelpers,
  ledgerCount,
  listGroup,
  windowText,
} from './invoice-date-window.js';

export interface NarrowedWindow {
  /** "YYYY-MM-DD..YYYY-MM-DD", invoice dates. */
  window: string;
  billing: number;
  ledger: number;
}

export interface CountInvariantResult {
  /** The connections counted together (same billing company and origin source). */
  connections: string[];
  /** Billing's and the ledgers' counts over the whole span. */
  billing: number;
  ledger: number;
  /** The smallest windows where the counts differed, compared id by id. */
  narrowed: NarrowedWindow[];
  /** Listing calls the check made. */
  calls: number;
  /** The invoice dates counted, from the earliest to the latest either side holds; undefined when neither holds one. */
  span?: DayWindow;
  /** Windows whose counts were compared (the span, and each half looked at while narrowing). */
  compared: number;
}

export interface CountInvariantOptions {
  signal?: AbortSignal;
  /** Compare id by id this connection's ledger alone (billing's counts stay the group's: they cannot be split). */
  only?: string;
  /** Runs before a narrowed window is compared id by id (a deep reconcile reads the source for it first). */
  beforeDiff?: (w: DayWindow) => Promise<void>;
}

/**
 * The count invariant: billing's count of the group's invoices (by origin source, for a range of invoice
 * dates: the listing's total of a one-record page) against the ledgers' (a ZCOUNT of the date index).
 * Where they differ the window is halved, one listing call per halving (the other half's count is the
 * parent's minus this one's), until a window holds at most `leafRecords` on either side or is a single
 * day; that window is then listed and compared id by id. One missing record among a million invoices
 * spread over three years costs 3 calls for the span, ~10 halvings and a page or two: 16 calls measured.
 *
 * What counts cannot see: a missing record and an extra one in the same window cancel out (the history
 * cycle finds those), and records without an invoice date are in no date window.
 */
export async function runCountInvariant(
  rt: HistoryHelpers,
  connectionId: string,
  report: DriftReport,
  options: CountInvariantOptions = {},
): Promise<CountInvariantResult> {
  const { signal } = options;
  const group = billingGroup(rt, connectionId);
  const { leafRecords } = rt.config.reconcile.countInvariant;
  for (const c of group.connections) await rt.ledgerDates.ensure(rt.ledger, c, 'invoices');
  // The span: from the earliest to the latest invoice date either side holds.
  let from = Infinity;
  let to = -Infinity;
  for (const c of group.connections) {
    const s = await rt.ledgerDates.span(c, 'invoices');
    if (s) ((from = Math.min(from, s.from)), (to = Math.max(to, s.to)));
  }
  const datedOnly = { dateType: 'INVOICE_DATE' as const, startDate: '0001-01-01', pageSize: 1 };
  const first = (await listGroup(group, { ...datedOnly, sort: 'invoiceDate' }, signal)).docs[0]?.invoiceDate;
  const last = (await listGroup(group, { ...datedOnly, sort: '-invoiceDate' }, signal)).docs[0]?.invoiceDate;
  if (first) from = Math.min(from, dayOf(first));
  if (last) to = Math.max(to, dayOf(last));
  const result: CountInvariantResult = {
    connections: group.connections,
    billing: 0,
    ledger: 0,
    narrowed: [],
    calls: 0,
    compared: 0,
  };
  if (from > to) return { ...result, calls: group.calls };
  const span = { from, to };
  result.span = span;
  result.compared = 1;
  result.billing = await billingCount(group, span, signal);
  result.ledger = await ledgerCount(rt, group, span);

  const narrow = async (w: DayWindow, billing: number, ledger: number): Promise<void> => {
    if (billing === ledger) return;
    if (w.from === w.to || Math.max(billing, ledger) <= leafRecords) {
      result.narrowed.push({ window: windowText(w), billing, ledger });
      await options.beforeDiff?.(w);
      await diffInvoiceDateWindow(rt, group, w, report, { compare: false, signal, only: options.only });
      return;
    }
    const mid = Math.floor((w.from + w.to) / 2);
    const left = { from: w.from, to: mid };
    const right = { from: mid + 1, to: w.to };
    const leftBilling = await billingCount(group, left, signal);
    const leftLedger = await ledgerCount(rt, group, left);
    result.compared += 2;
    await narrow(left, leftBilling, leftLedger);
    await narrow(right, billing - leftBilling, ledger - leftLedger);
  };
  await narrow(span, result.billing, result.ledger);
  result.calls = group.calls;
  return result;
}
