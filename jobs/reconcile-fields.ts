import type { BillingBody } from '../src/connector/types.js';

/**
 * The fields reconciliation compares between the ledger and billing's invoice listing, as exact
 * strings (numbers printed by JSON are exact for 2-decimal amounts; comparison is decimal later).
 * Only invoices are listed by billing, so only invoices have fields.
 */
export function reconcileFields(body: BillingBody): Record<string, string | null> | undefined {
  if (body.kind !== 'invoice') return undefined;
  const i = body.invoice;
  const s = (v: unknown) => (v === undefined || v === null ? null : String(v));
  return {
    invoiceNumber: i.invoiceNumber,
    invoiceDate: s(i.invoiceDate?.date),
    invoiceDueDate: s(i.invoiceDueDate?.date),
    invoiceCurrency: s(i.invoiceCurrency),
    exchangeRate: s(i.exchangeRate),
    invoiceSubtotal: s(i.invoiceSubtotal),
    invoiceTax: s(i.invoiceTax?.total),
    invoiceTotal: s(i.invoiceTotal),
    invoicePaidAmount: s(i.invoicePaidAmount),
    invoiceAdjustedAmount: s(i.invoiceAdjustedAmount),
  };
}
