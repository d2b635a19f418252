import type { InvoiceRecord } from '../../src/billing/schemas/index.js';
import type { Ledger, LedgerEntry } from '../../src/pipeline/ledger.js';
import type { LedgerDateIndex } from '../../src/pipeline/ledger-date-index.js';
import type { Quarantine } from '../../src/pipeline/quarantine.js';
import type { ReconcileState, ReconcileVerdict } from '../../src/pipeline/reconcile-state.js';
import { compareFields } from './compare-fields.js';
import { deletedInBillingOnly } from './deleted-in-billing.js';
import type { DriftReport } from './drift.js';

const ENTITY = 'invoices';

/** One invoice-date window being diffed: where its findings go and how they are labelled. */
export interface WindowScope {
  from: number;
  to: number;
  report: DriftReport;
  /** The window, as findings name it (`invoice dates …`). */
  where: string;
  /** When the diff started (its verdicts' time). */
  at: string;
  /** Also compare the fields of the records present on both sides. */
  compare: boolean;
  /** Which of the window's billing ids billing holds under any date (listing calls by id, 100 at a time). */
  inBillingById(billingIds: string[]): Promise<Set<string>>;
}

type Verdicts = Array<[string, ReconcileVerdict]>;

/**
 * The ledger's side of the window for one connection: each id the ledger dates there, against billing's
 * window (`billingByErp`); the ids found there are added to `matched`. Returns how many ids it walked.
 */
export async function diffWindowLedger(
  rt: {
    ledger: Pick<Ledger, 'getMany'>;
    ledgerDates: Pick<LedgerDateIndex, 'ids'>;
    reconcileState: Pick<ReconcileState, 'recordVerdicts'>;
    quarantine: Pick<Quarantine, 'get'>;
  },
  scope: WindowScope,
  conn: string,
  billingByErp: ReadonlyMap<string, InvoiceRecord>,
  matched: Set<string>,
): Promise<number> {
  let walked = 0;
  const verdicts: Verdicts = [];
  for await (const ids of rt.ledgerDates.ids(conn, ENTITY, scope.from, scope.to)) {
    walked += ids.length;
    const entries = await rt.ledger.getMany(conn, ENTITY, ids);
    const absent: Array<[string, LedgerEntry]> = [];
    for (const [i, erpId] of ids.entries()) {
      const e = entries[i];
      if (!e) continue; // removed since the index was read
      const d = billingByErp.get(erpId);
      if (d && d.invoiceId === e.billingId) {
        matched.add(erpId);
        compareMatched(scope, erpId, e, d, verdicts);
      } else absent.push([erpId, e]);
    }
    // Absent from the window: in billing under another date, or missing.
    for (let i = 0; i < absent.length; i += 100) await judgeAbsent(rt, scope, conn, absent.slice(i, i + 100), verdicts);
  }
  await rt.reconcileState.recordVerdicts(conn, ENTITY, verdicts);
  return walked;
}

/** A record in billing's window and the ledger's: its fields compared, when the diff compares. */
function compareMatched(scope: WindowScope, erpId: string, e: LedgerEntry, d: InvoiceRecord, verdicts: Verdicts) {
  const diffs = scope.compare && e.fields ? compareFields(e.fields, d) : [];
  if (diffs.length)
    scope.report.add({
      kind: 'field_mismatch',
      erpId,
      invoiceId: d.invoiceId,
      invoiceNumber: d.invoiceNumber,
      detail: `${diffs.join('; ')} (${scope.where})`,
    });
  if (scope.compare)
    verdicts.push([
      erpId,
      {
        at: scope.at,
        window: scope.where,
        verdict: diffs.length ? 'field_mismatch' : 'ok',
        detail: diffs.join('; ') || undefined,
      },
    ]);
}

/** Up to 100 ledger records absent from billing's window: dated elsewhere in billing, deleted, or missing. */
async function judgeAbsent(
  rt: { quarantine: Pick<Quarantine, 'get'> },
  scope: WindowScope,
  conn: string,
  chunk: Array<[string, LedgerEntry]>,
  verdicts: Verdicts,
): Promise<void> {
  const { at, where, report } = scope;
  const present = await scope.inBillingById(chunk.map(([, e]) => e.billingId));
  for (const [erpId, e] of chunk) {
    if (present.has(e.billingId)) continue; // dated elsewhere in billing: reported in that window
    if (e.sourceDeletedAt) continue; // deleted in the source and absent from billing: as it should be
    // As in a reconcile of UPDATED_AT days: a record billing refused to take back (409) was deleted there.
    const refused = await rt.quarantine.get(conn, ENTITY, erpId);
    if (refused?.reason === 'BILLING_CONFLICT') {
      const deleted = deletedInBillingOnly(erpId, e, refused.message);
      if (deleted) report.add({ ...deleted, detail: `${deleted.detail} (${where})` });
      verdicts.push([erpId, { at, window: where, verdict: deleted ? deleted.kind : 'ok', detail: deleted?.detail }]);
      continue;
    }
    const detail = `invoice date ${e.fields?.invoiceDate ?? '∅'}, written ${new Date(e.writtenAt).toISOString()}, not in billing (${where})`;
    report.add({ kind: 'missing_in_billing', erpId, invoiceId: e.billingId, invoiceNumber: e.number, detail });
    verdicts.push([erpId, { at, window: where, verdict: 'missing_in_billing', detail }]);
  }
}
