import type { Logger } from 'pino';
import { VISIBLE_LIFECYCLE_STATUSES } from '../../src/billing/dates.js';
import type { InvoiceListParams, InvoiceRecord } from '../../src/billing/schemas/index.js';
import type { AppConfig } from '../../src/config.js';
import type { Metrics } from '../../src/observability/metrics.js';
import { dateOfDay } from '../../src/pipeline/ledger-date-index.js';
import type { LedgerDateIndex } from '../../src/pipeline/ledger-date-index.js';
import type { Ledger, LedgerEntry } from '../../src/pipeline/ledger.js';
import type { Quarantine } from '../../src/pipeline/quarantine.js';
import type { ReconcileCycleState } from '../../src/pipeline/reconcile-cycle-state.js';
import type { ReconcileState } from '../../src/pipeline/reconcile-state.js';
import type { ConnectionHandle } from '../runtime.js';
import { compareFields } from './compare-fields.js';
import { deletedInBillingOnly } from './deleted-in-billing.js';
import type { DriftReport } from './drift.js';

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
  const billingByErp = new Map<string, InvoiceRecord>();
  let billingTotal = 0;
  for (let pageNumber = 1; ;) {
    const page = await listGroup(
      group,
      { dateType: 'INVOICE_DATE', startDate: dateOfDay(w.from), endDate: dateOfDay(w.to), pageSize: PAGE, pageNumber },
      signal,
    );
    for (const d of page.docs) {
      billingTotal++;
      if (!d.erpId)
        report.add({
          kind: 'orphan_in_billing',
          invoiceId: d.invoiceId,
          invoiceNumber: d.invoiceNumber,
          detail: `no erpId (${where})`,
        });
      else billingByErp.set(d.erpId, d);
    }
    if (!page.hasNext || page.nextPageNumber === null) break;
    pageNumber = page.nextPageNumber;
  }
  // 2. The ledgers' side: each id of the window, against billing's.
  let ledgerTotal = 0;
  const matched = new Set<string>();
  for (const conn of walked) {
    const verdicts: Array<[string, { at: string; window: string; verdict: string; detail?: string }]> = [];
    for await (const ids of rt.ledgerDates.ids(conn, ENTITY, w.from, w.to)) {
      ledgerTotal += ids.length;
      const entries = await rt.ledger.getMany(conn, ENTITY, ids);
      const absent: Array<[string, LedgerEntry]> = [];
      for (const [i, erpId] of ids.entries()) {
        const e = entries[i];
        if (!e) continue; // removed since the index was read
        const d = billingByErp.get(erpId);
        if (d && d.invoiceId === e.billingId) {
          matched.add(erpId);
          const diffs = options.compare && e.fields ? compareFields(e.fields, d) : [];
          if (diffs.length)
            report.add({
              kind: 'field_mismatch',
              erpId,
              invoiceId: d.invoiceId,
              invoiceNumber: d.invoiceNumber,
              detail: `${diffs.join('; ')} (${where})`,
            });
          if (options.compare)
            verdicts.push([
              erpId,
              {
                at,
                window: where,
                verdict: diffs.length ? 'field_mismatch' : 'ok',
                detail: diffs.join('; ') || undefined,
              },
            ]);
        } else absent.push([erpId, e]);
      }
      // Absent from the window: in billing under another date, or missing.
      for (let i = 0; i < absent.length; i += 100) {
        const chunk = absent.slice(i, i + 100);
        const found = await listGroup(group, { invoiceIds: chunk.map(([, e]) => e.billingId), pageSize: 100 }, signal);
        const present = new Set(found.docs.map((d) => d.invoiceId));
        for (const [erpId, e] of chunk) {
          if (present.has(e.billingId)) continue; // dated elsewhere in billing: reported in that window
          if (e.sourceDeletedAt) continue; // deleted in the source and absent from billing: as it should be
          // As in a reconcile of UPDATED_AT days: a record billing refused to take back (409) was deleted there.
          const refused = await rt.quarantine.get(conn, ENTITY, erpId);
          if (refused?.reason === 'BILLING_CONFLICT') {
            const deleted = deletedInBillingOnly(erpId, e, refused.message);
            if (deleted) report.add({ ...deleted, detail: `${deleted.detail} (${where})` });
            verdicts.push([
              erpId,
              { at, window: where, verdict: deleted ? deleted.kind : 'ok', detail: deleted?.detail },
            ]);
            continue;
          }
          const detail = `invoice date ${e.fields?.invoiceDate ?? '∅'}, written ${new Date(e.writtenAt).toISOString()}, not in billing (${where})`;
          report.add({ kind: 'missing_in_billing', erpId, invoiceId: e.billingId, invoiceNumber: e.number, detail });
          verdicts.push([erpId, { at, window: where, verdict: 'missing_in_billing', detail }]);
        }
      }
    }
    await rt.reconcileState.recordVerdicts(conn, ENTITY, verdicts);
  }
  // 3. Billing's records of the window no ledger of the group dates there.
  const extra = [...billingByErp.entries()].filter(([erpId]) => !matched.has(erpId));
  for (let i = 0; i < extra.length; i += 1000) {
    const chunk = extra.slice(i, i + 1000);
    const entries = await Promise.all(
      group.connections.map((c) =>
        rt.ledger.getMany(
          c,
          ENTITY,
          chunk.map(([id]) => id),
        ),
      ),
    );
    for (const [j, [erpId, d]] of chunk.entries()) {
      const owner = entries.findIndex((es) => es[j] !== undefined);
      const e = owner < 0 ? undefined : entries[owner]![j];
      if (e && !walked.includes(group.connections[owner]!)) continue;
      if (!e)
        report.add({
          kind: 'orphan_in_billing',
          erpId,
          invoiceId: d.invoiceId,
          invoiceNumber: d.invoiceNumber,
          detail: `unknown to the ledger (${where})`,
        });
      else if (e.billingId !== d.invoiceId)
        report.add({
          kind: 'duplicate',
          erpId,
          invoiceId: d.invoiceId,
          invoiceNumber: d.invoiceNumber,
          detail: `a second billing invoice for ERP record ${erpId} (ours is ${e.billingId})`,
        });
      else
        report.add({
          kind: 'field_mismatch',
          erpId,
          invoiceId: d.invoiceId,
          invoiceNumber: d.invoiceNumber,
          detail: `invoiceDate: ledger ${e.fields?.invoiceDate ?? '∅'} ≠ billing ${d.invoiceDate ?? '∅'}`,
        });
    }
  }
  return { billing: billingTotal, ledger: ledgerTotal };
}
