import type { CreditNoteInput } from '../../src/billing/schemas/index.js';
import { erpIdOf } from '../../src/mapping/index.js';
import { Ledger } from '../../src/pipeline/ledger.js';
import type { UpsertBillingClient, UpsertHelpers } from './types.js';

/**
 * The invoices a credit note applies to that billing does not hold yet. Our own invoices are checked in
 * the ledger (no network); anything else (another origin, an id cut to its bound, a number) in billing.
 */
export async function invoicesNotInBilling(
  rt: Pick<UpsertHelpers, 'ledger'>,
  billing: UpsertBillingClient,
  conn: string,
  creditNote: CreditNoteInput,
  signal?: AbortSignal,
): Promise<string[]> {
  const applied = creditNote.appliedToInvoices ?? [];
  if (!applied.length) return [];
  const byId = applied.filter((a) => a.invoiceId).map((a) => a.invoiceId!);
  const mine = byId
    .map((id) => ({ id, erpId: erpIdOf('inv', conn, id) }))
    .filter((c): c is { id: string; erpId: string } => c.erpId !== undefined);
  const entries = await rt.ledger.getMany(
    conn,
    'invoices',
    mine.map((c) => c.erpId),
  );
  // An entry marked for repair (or for a new billing company) is not known to be in billing: ask billing.
  const written = new Set(mine.filter((_, i) => entries[i] && !Ledger.repairRequested(entries[i])).map((c) => c.id));
  const toAsk = byId.filter((id) => !written.has(id));
  const numbers = applied.filter((a) => !a.invoiceId && a.invoiceNumber).map((a) => a.invoiceNumber!);
  if (!toAsk.length && !numbers.length) return [];
  const missing: string[] = [];
  if (toAsk.length) {
    const found = await billing.listInvoices(
      { invoiceIds: toAsk, lifecycleStatuses: ['DRAFT', 'FINALIZED', 'VOIDED'], pageSize: Math.min(500, toAsk.length) },
      { signal },
    );
    const present = new Set(found.docs.map((d) => d.invoiceId));
    missing.push(...toAsk.filter((id) => !present.has(id)));
  }
  for (const n of numbers) {
    const found = await billing.listInvoices(
      { invoiceNumber: n, lifecycleStatuses: ['DRAFT', 'FINALIZED', 'VOIDED'], pageSize: 1 },
      { signal },
    );
    if (found.totalDocs === 0) missing.push(n);
  }
  return missing;
}

/** Of the missing invoices (billing ids), those known not to be coming: quarantined, or deleted in the source. */
export async function invoicesThatWillNotCome(
  rt: Pick<UpsertHelpers, 'ledger' | 'quarantine'>,
  conn: string,
  missing: string[],
): Promise<string[]> {
  const out: string[] = [];
  for (const billingId of missing) {
    const erpId = erpIdOf('inv', conn, billingId);
    if (erpId === undefined) continue;
    const [quarantined, entry] = await Promise.all([
      rt.quarantine.get(conn, 'invoices', erpId),
      rt.ledger.get(conn, 'invoices', erpId),
    ]);
    if (quarantined || entry?.sourceDeletedAt) out.push(billingId);
  }
  return out;
}
