import type { LedgerEntry } from '../../src/pipeline/ledger.js';
import { deletedInBillingOnly } from './deleted-in-billing.js';
import type { ReconcilePass } from './reconcile-pass.js';

/**
 * What a ledger entry of the window that billing's window did not show is, once billing was asked by id:
 * - `delete-not-reflected`: billing still holds an invoice the source deleted in this window (its billing
 *   updatedAt is outside the window), counted in the window of the delete;
 * - `counted-elsewhere`: billing holds it, updated since, outside this window: counted there;
 * - `gone-as-deleted`: deleted in the source and absent from billing, as it should be;
 * - `absent`: not in billing (missing, or deleted in billing: its quarantine entry tells).
 */
export type UnseenEntry = 'delete-not-reflected' | 'counted-elsewhere' | 'gone-as-deleted' | 'absent';

export function classifyUnseenEntry(
  e: Pick<LedgerEntry, 'sourceDeletedAt'>,
  inBilling: boolean,
  inWindow: (ms: number) => boolean,
): UnseenEntry {
  if (inBilling)
    return e.sourceDeletedAt && inWindow(Date.parse(e.sourceDeletedAt)) ? 'delete-not-reflected' : 'counted-elsewhere';
  return e.sourceDeletedAt ? 'gone-as-deleted' : 'absent';
}

/** Ledger side: what we wrote (or saw deleted) on these days but billing's window did not show. */
export async function ledgerPass(pass: ReconcilePass): Promise<void> {
  const { rt, conn, report, inWindow } = pass;
  for await (const batch of rt.ledger.scan(conn, 'invoices', 1000)) {
    const candidates = batch.filter(
      ([, e]) => inWindow(e.writtenAt) || (e.sourceDeletedAt !== undefined && inWindow(Date.parse(e.sourceDeletedAt))),
    );
    report.checked.ledger += candidates.length;
    if (!candidates.length) continue;
    const seenInBilling = await pass.seen.has(candidates.map(([id]) => id));
    const unseen = candidates.filter((_, i) => !seenInBilling[i]);
    for (let i = 0; i < unseen.length; i += 100) await judgeUnseen(pass, unseen.slice(i, i + 100));
    await pass.flushVerdicts();
  }
}

/** Up to 100 unseen entries: billing asked for them by id (one listing call), each judged. */
async function judgeUnseen(pass: ReconcilePass, chunk: Array<[string, LedgerEntry]>): Promise<void> {
  const { billing, signal } = pass;
  await billing.budget.take(signal);
  const found = await billing.client.listInvoices(
    {
      invoiceIds: chunk.map(([, e]) => e.billingId),
      lifecycleStatuses: ['DRAFT', 'FINALIZED', 'VOIDED'],
      pageSize: 100,
    },
    { signal },
  );
  const present = new Set(found.docs.map((d) => d.invoiceId));
  for (const [erpId, e] of chunk) {
    const kind = classifyUnseenEntry(e, present.has(e.billingId), pass.inWindow);
    if (kind === 'delete-not-reflected') {
      pass.report.add({
        kind: 'delete_not_reflected',
        erpId,
        invoiceId: e.billingId,
        invoiceNumber: e.number,
        detail: `deleted in the source at ${e.sourceDeletedAt}; billing still lists it`,
      });
      pass.verdict(erpId, 'delete_not_reflected');
    }
    if (kind === 'gone-as-deleted') pass.verdict(erpId, 'ok', 'deleted in source and absent from billing');
    if (kind === 'absent') await judgeAbsent(pass, erpId, e);
  }
}

/** An entry billing does not hold: deleted in billing (a person's call), or missing (repaired). */
async function judgeAbsent(pass: ReconcilePass, erpId: string, e: LedgerEntry): Promise<void> {
  // A record billing refused to take back (409: deleted in billing) needs a person, not a repair.
  const refused = await pass.rt.quarantine.get(pass.conn, 'invoices', erpId);
  if (refused?.reason === 'BILLING_CONFLICT') {
    const deleted = deletedInBillingOnly(erpId, e, refused.message);
    if (deleted) pass.report.add(deleted);
    pass.verdict(
      erpId,
      deleted ? deleted.kind : 'ok',
      deleted ? deleted.detail : 'deleted in billing; void in the source',
    );
    return;
  }
  pass.report.add({
    kind: 'missing_in_billing',
    erpId,
    invoiceId: e.billingId,
    invoiceNumber: e.number,
    detail: `written ${new Date(e.writtenAt).toISOString()}, not in billing`,
  });
  pass.verdict(erpId, 'missing_in_billing');
  pass.toRepair.push({ erpId, version: e.version });
}
