import type { Logger } from 'pino';
import { VISIBLE_LIFECYCLE_STATUSES } from '../../src/billing/dates.js';
import type { InvoiceListParams, InvoiceRecord } from '../../src/billing/schemas/index.js';
import type { AppConfig } from '../../src/config.js';
import type { Metrics } from '../../src/observability/metrics.js';
import { dateOfDay } from '../../src/pipeline/ledger-date-index.js';
import type { LedgerDateIndex } from '../../src/pipeline/ledger-date-index.js';
import type { Ledger } from '../../src/pipeline/ledger.js';
import type { Quarantine } from '../../src/pipeline/quarantine.js';
import type { ReconcileCycleState } from '../../src/pipeline/reconcile-cycle-state.js';
import type { ReconcileState } from '../../src/pipeline/reconcile-state.js';
import type { ConnectionHandle } from '../runtime.js';
import { billingOnlyItems } from './billing-only.js';
import type { DriftReport } from './drift.js';
import { diffWindowLedger, type WindowScope } from './window-ledger-side.js';

const PAGE = 500;
const ENTITY = 'invoices';

/** What the history checks of the scheduled reconcile (cycle, count invariant) use. */
export interface HistoryHelpers {
  logger: Logger;
  metrics: Metrics;
  config: { reconcile: Pick<AppConfig['reconcile'], 'cycleDays' | 'everySeconds' | 'countInvariant'> };
  /** Read at each run: a config reload changes the connections. */
  connectionIds(): string[];
  connection(id: string): ConnectionHandle;
  ledger: Pick<Ledger, 'getMany' | 'scan' | 'count'>;
  ledgerDates: Pick<LedgerDateIndex, 'count' | 'ids' | 'span' | 'ensure'>;
  reconcileCycle: Pick<ReconcileCycleState, 'get' | 'set'>;
  reconcileState: Pick<ReconcileState, 'recordVerdicts'>;
  /** A record billing refused to take back (409) is told apart from a lost one by its quarantine reason. */
  quarantine: Pick<Quarantine, 'get'>;
}

/** An inclusive range of invoice days (days since 1970-01-01). */
export interface DayWindow {
  from: number;
  to: number;
}

export const windowText = (w: DayWindow): string => `${dateOfDay(w.from)}..${dateOfDay(w.to)}`;

/**
 * The connections whose invoices billing cannot tell apart: the same billing company (the key's) and
 * the same origin source. Billing's counts by origin source are theirs together, so the ledger side of a
 * count is the sum of their ledgers.
 */
export interface BillingGroup {
  connections: string[];
  originSource: string;
  handle: ConnectionHandle;
  /** Listing calls made so far (what a check costs). */
  calls: number;
}

export function billingGroup(
  rt: Pick<HistoryHelpers, 'connectionIds' | 'connection'>,
  connectionId: string,
): BillingGroup {
  const handle = rt.connection(connectionId);
  const same = (id: string) => {
    const h = rt.connection(id);
    return h.billing.company === handle.billing.company && h.config.originSource === handle.config.originSource;
  };
  const others = rt.connectionIds().filter((id) => id !== connectionId && same(id));
  return { connections: [connectionId, ...others], originSource: handle.config.originSource, handle, calls: 0 };
}

/** One listing call of the group's invoices (its origin source, every visible lifecycle), paced by the company's budget. */
export async function listGroup(group: BillingGroup, params: InvoiceListParams, signal?: AbortSignal) {
  await group.handle.billing.budget.take(signal);
  group.calls++;
  return group.handle.billing.client.listInvoices(
    { originSource: [group.originSource as never], lifecycleStatuses: [...VISIBLE_LIFECYCLE_STATUSES], ...params },
    { signal },
  );
}

/** Billing's count of the group's invoices dated in the window: the listing's total, one call of one record. */
export async function billingCount(group: BillingGroup, w: DayWindow, signal?: AbortSignal): Promise<number> {
  const page = await listGroup(
    group,
    { dateType: 'INVOICE_DATE', startDate: dateOfDay(w.from), endDate: dateOfDay(w.to), pageSize: 1 },
    signal,
  );
  return page.totalDocs;
}

/** The ledgers' count of the group's invoices dated in the window (no billing call). */
export async function ledgerCount(
  rt: Pick<HistoryHelpers, 'ledgerDates'>,
  group: BillingGroup,
  w: DayWindow,
): Promise<number> {
  let n = 0;
  for (const c of group.connections) n += await rt.ledgerDates.count(c, ENTITY, w.from, w.to);
  return n;
}

export interface WindowDiff {
  billing: number;
  ledger: number;
}

/**
 * Billing ⟷ ledger, id by id, for the invoices dated in one window (its callers keep it small: memory
 * holds the window's billing ids). A record absent from billing's window is looked up by its billing id
 * before it is called missing: its date may have moved in billing, and it is then reported once, in the
 * window of billing's date, as an invoiceDate mismatch. `compare`: also compare the fields of the
 * records present on both sides.
 */
export async function diffInvoiceDateWindow(
  rt: Pick<HistoryHelpers, 'ledger' | 'ledgerDates' | 'reconcileState' | 'quarantine'>,
  group: BillingGroup,
  w: DayWindow,
  report: DriftReport,
  options: { compare: boolean; signal?: AbortSignal; only?: string },
): Promise<WindowDiff> {
  // `only`: walk that connection's ledger alone; billing's records of the group's other connections are theirs to check.
  const walked = options.only ? [options.only] : group.connections;
  const { signal } = options;
  const where = `invoice dates ${windowText(w)}`;
  const at = new Date().toISOString();
  // 1. Billing's side of the window: every page.
  const billing = await billingWindow(group, w, report, where, signal);
  // 2. The ledgers' side: each id of the window, against billing's.
  const scope: WindowScope = {
    ...w,
    report,
    where,
    at,
    compare: options.compare,
    inBillingById: async (invoiceIds) => {
      const found = await listGroup(group, { invoiceIds, pageSize: 100 }, signal);
      return new Set(found.docs.map((d) => d.invoiceId));
    },
  };
  let ledgerTotal = 0;
  const matched = new Set<string>();
  for (const conn of walked) ledgerTotal += await diffWindowLedger(rt, scope, conn, billing.byErp, matched);
  // 3. Billing's records of the window no ledger of the group dates there.
  const extra = [...billing.byErp.entries()].filter(([erpId]) => !matched.has(erpId));
  for (const item of await billingOnlyItems(rt, group.connections, walked, extra, where)) report.add(item);
  return { billing: billing.total, ledger: ledgerTotal };
}

/** Billing's invoices dated in the window, by ERP id (those without one reported as orphans), and how many it holds. */
async function billingWindow(
  group: BillingGroup,
  w: DayWindow,
  report: DriftReport,
  where: string,
  signal?: AbortSignal,
): Promise<{ byErp: Map<string, InvoiceRecord>; total: number }> {
  const byErp = new Map<string, InvoiceRecord>();
  let total = 0;
  for (let pageNumber = 1; ;) {
    const page = await listGroup(
      group,
      { dateType: 'INVOICE_DATE', startDate: dateOfDay(w.from), endDate: dateOfDay(w.to), pageSize: PAGE, pageNumber },
      signal,
    );
    for (const d of page.docs) {
      total++;
      if (!d.erpId)
        report.add({
          kind: 'orphan_in_billing',
          invoiceId: d.invoiceId,
          invoiceNumber: d.invoiceNumber,
          detail: `no erpId (${where})`,
        });
      else byErp.set(d.erpId, d);
    }
    if (!page.hasNext || page.nextPageNumber === null) break;
    pageNumber = page.nextPageNumber;
  }
  return { byErp, total };
}
