import type { InvoiceRecord, InvoiceStatus } from './store-records.js';

/** TDS the customer withheld over all payments (`tax_amount_withheld`). */
export function withheldMinor(invoice: InvoiceRecord): number {
  return invoice.payments.reduce((s, p) => s + (p.withheldMinor ?? 0), 0);
}

/** balance = total − payment_made − credits_applied − write_off_amount − tax_amount_withheld (minor units). */
export function invoiceBalanceMinor(invoice: InvoiceRecord, creditsAppliedMinor: number): number {
  const paid = invoice.payments.reduce((s, p) => s + p.amountMinor, 0);
  return invoice.amounts.totalMinor - paid - creditsAppliedMinor - invoice.writeOffMinor - withheldMinor(invoice);
}

/**
 * Zoho's status for a posted invoice, from its money and dates: `paid` when nothing is due, `partially_paid`
 * once anything was paid or credited, `overdue` past the due date, else `sent` (`viewed` once the client
 * opened it). Drafts and voids keep their status. Evaluated when the record is generated or mutated, not
 * continuously (Zoho's overdue job does not bump `last_modified_time` either).
 */
export function deriveInvoiceStatus(invoice: InvoiceRecord, creditsAppliedMinor: number, today: string): InvoiceStatus {
  if (invoice.status === 'draft' || invoice.status === 'void') return invoice.status;
  const balance = invoiceBalanceMinor(invoice, creditsAppliedMinor);
  if (balance <= 0) return 'paid';
  const paid = invoice.payments.reduce((s, p) => s + p.amountMinor, 0);
  if (paid + creditsAppliedMinor + invoice.writeOffMinor + withheldMinor(invoice) > 0) return 'partially_paid';
  if (invoice.due_date < today) return 'overdue';
  return invoice.is_viewed_by_client ? 'viewed' : 'sent';
}
