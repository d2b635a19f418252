import { computeDocumentAmounts } from './compute-document-amounts.js';
import type { GeneratorContext } from './generator-context.js';
import type { CreditNoteRecord, InvoiceRecord, LineRecord } from './store-records.js';
import { formatZohoDate } from './zoho-timestamp.js';

/**
 * A credit note against `invoice`, crediting `lines` (copies of invoice lines: same item, rate and tax),
 * in the invoice's currency and exchange rate, not yet applied (status open).
 */
export function buildCreditNote(
  ctx: GeneratorContext,
  invoice: InvoiceRecord,
  lines: LineRecord[],
  createdMs: number,
  creditnoteNumber: string,
  reason: string,
): CreditNoteRecord {
  const terms = {
    currency_code: invoice.currency_code,
    exchangeRateMicro: invoice.exchangeRateMicro,
    lines,
    discount_type: 'item_level' as const,
    entityDiscount: null,
    is_discount_before_tax: true,
    shippingMinor: 0,
    adjustmentMinor: 0,
    adjustment_description: '',
  };
  return {
    ...terms,
    creditnote_id: ctx.transactionIds.take(),
    creditnote_number: creditnoteNumber,
    reference_number: invoice.invoice_number,
    customer_id: invoice.customer_id,
    customer_name: invoice.customer_name,
    gst_no: invoice.gst_no,
    gst_treatment: invoice.gst_treatment,
    place_of_supply: invoice.place_of_supply,
    date: formatZohoDate(createdMs, ctx.organization.offsetMinutes),
    status: 'open',
    reason,
    applications: [],
    billing_address: { ...invoice.billing_address },
    shipping_address: { ...invoice.shipping_address },
    createdMs,
    modifiedMs: createdMs,
    amounts: computeDocumentAmounts(terms, ctx.taxes),
  };
}

/** A copy of an invoice line for a credit note, for `quantityHundredths` of it, without discount. */
export function creditLine(
  ctx: GeneratorContext,
  invoice: InvoiceRecord,
  from: LineRecord,
  quantityHundredths: number,
  order: number,
): LineRecord {
  return {
    ...from,
    line_item_id: ctx.transactionIds.take(),
    item_order: order,
    quantityHundredths,
    discount: null,
    invoice_id: invoice.invoice_id,
    invoice_item_id: from.line_item_id,
  };
}
