import type { LedgerEntry } from '../../src/pipeline/ledger.js';
import { isSourceVoid } from './compare-record.js';
import type { DriftItem } from './drift.js';

/**
 * A written invoice billing no longer lists and refused to take back (409: deleted in billing). The
 * listing never shows deleted invoices, so that refusal is how a billing-side delete is told apart from a
 * lost record (which a repair writes again). While the source holds the invoice live a receivable has
 * gone from billing only, and no sync can bring it back: a person decides (restore it in billing, or void
 * or delete it in the source). A source void agrees with the delete: no drift (undefined).
 */
export function deletedInBillingOnly(erpId: string, e: LedgerEntry, refusal: string): DriftItem | undefined {
  if (isSourceVoid(e)) return undefined;
  return {
    kind: 'deleted_in_billing_only',
    erpId,
    invoiceId: e.billingId,
    invoiceNumber: e.number,
    detail: `deleted in billing (it refused the record again: ${refusal}); the source holds it as ${e.sourceStatus ?? 'live'}`,
    needsPerson: true,
  };
}
