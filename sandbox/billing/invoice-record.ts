import type { InvoiceInput, InvoiceStatus, PaymentStatus } from '../../src/billing/schemas/index.js';
import type { StoredInvoice } from './stored-invoice.js';
import { formatServiceTimestamp } from './service-timestamp.js';
import { minus } from '../kit/minor-units.js';

/**
 * The invoice record the listing returns, and its derived values:
 * - A11: invoiceOutstandingAmount = invoiceTotal − invoicePaidAmount − invoiceAdjustedAmount, in
 *   decimal, rounded to 2 places (credit notes show separately as creditNoteAdjustedAmount, A20).
 * - A10: paymentStatus PAID when outstanding ≤ 0, else UNPAID when nothing is paid, else
 *   PARTIALLY_PAID; invoiceStatus CLOSED when outstanding ≤ 0, else OVERDUE when the due date is
 *   before the emulator's today (UTC), else OPEN.
 *
 * Fields beyond the interface's table (documented extras, a tolerant reader ignores them):
 * exchangeRate (null when omitted), invoiceAcceptanceStatus, customerId, tags, metaData.
 */
export function outstandingOf(input: InvoiceInput): number {
  return minus(input.invoiceTotal, input.invoicePaidAmount, input.invoiceAdjustedAmount);
}

export function paymentStatusOf(inv: StoredInvoice): PaymentStatus {
  if (inv.outstanding <= 0) return 'PAID';
  return inv.input.invoicePaidAmount === 0 ? 'UNPAID' : 'PARTIALLY_PAID';
}

export function invoiceStatusOf(inv: StoredInvoice, today: string): InvoiceStatus {
  if (inv.outstanding <= 0) return 'CLOSED';
  const due = inv.input.invoiceDueDate?.date;
  return due !== undefined && due < today ? 'OVERDUE' : 'OPEN';
}

const CREATED_BY = Object.freeze({ userId: 'api', userName: 'API' });

export function toInvoiceRecord(inv: StoredInvoice, today: string): Record<string, unknown> {
  const i = inv.input;
  const cd = i.customerDetails;
  return {
    id: inv.id,
    invoiceId: i.invoiceId,
    invoiceNumber: i.invoiceNumber,
    invoiceStatus: invoiceStatusOf(inv, today),
    paymentStatus: paymentStatusOf(inv),
    invoiceDate: i.invoiceDate?.date ?? null,
    invoiceDueDate: i.invoiceDueDate?.date ?? null,
    promiseToPayDate: i.promiseToPayDate?.date ?? null,
    invoiceSubtotal: i.invoiceSubtotal,
    invoiceTotal: i.invoiceTotal,
    invoicePaidAmount: i.invoicePaidAmount,
    invoiceAdjustedAmount: i.invoiceAdjustedAmount,
    invoiceOutstandingAmount: inv.outstanding,
    writtenOffAmount: 0,
    roundOffAmount: 0,
    creditNoteAdjustedAmount: inv.creditNoteAdjusted,
    invoiceTax: i.invoiceTax ?? null,
    discount: i.discount ?? null,
    buyerId: cd?.buyerId ?? i.customerId ?? null,
    customerName: i.customerName ?? cd?.name ?? null,
    lineItems: i.lineItems ?? [],
    referenceType: i.referenceType ?? null,
    referenceId: i.referenceId ?? null,
    referenceText: i.referenceText ?? null,
    createdAt: formatServiceTimestamp(inv.createdAtMs),
    updatedAt: formatServiceTimestamp(inv.updatedAtMs),
    lifecycleStatus: inv.lifecycleStatus,
    invoiceOriginSource: i.invoiceOriginSource,
    createdBy: { ...CREATED_BY },
    invoiceAmountAdjustments: i.createInvoiceAdjustments ?? [],
    irnNumber: i.irnNumber ?? null,
    placeOfSupply: i.placeOfSupply ?? null,
    invoiceCurrency: i.invoiceCurrency,
    erpId: i.erpId ?? null,
    invoiceTds: i.invoiceTax?.tdsTax ?? null,
    invoiceBillingAddress: cd?.registeredAddress ?? null,
    invoiceShippingAddress: cd?.addresses?.[0] ?? null,
    invoiceSellerDetails: null,
    invoiceGeneralTerms: null,
    invoicePaymentTerms: null,
    billingPeriod: null,
    einvoiceAcknowledgementNumber: null,
    einvoiceAcknowledgedAt: null,
    buyerGstin: cd?.taxIdentifiers?.find((t) => t.type === 'GSTIN')?.value ?? null,
    // extras
    exchangeRate: i.exchangeRate ?? null,
    invoiceAcceptanceStatus: i.invoiceAcceptanceStatus ?? null,
    customerId: i.customerId ?? null,
    tags: i.tags ?? null,
    metaData: i.metaData ?? null,
  };
}
