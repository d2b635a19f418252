import { InvoiceInput } from '../../src/billing/schemas/index.js';
import type { BillingBody } from '../../src/connector/types.js';
import { fieldDigest } from '../reconcile/field-digest.js';

/**
 * Every field of an invoice that was sent and that billing's listing gives back, as reconciliation
 * compares it with the listing: dates, texts and amounts as exact strings (decimal comparison later),
 * objects and arrays (tax, discount, line items, adjustments, tags, metaData) as a digest of their
 * canonical content (`digest:<listing field>`), so a change to any part of them is seen without keeping
 * the whole body in the ledger. A field that was not sent is not listed: billing's default for it is
 * not a difference. Only invoices are listed by billing, so only invoices have fields.
 */
export function reconcileFields(body: BillingBody): Record<string, string | null> | undefined {
  if (body.kind !== 'invoice') return undefined;
  // What goes over the wire is the body as the client validates it, with the interface's defaults filled
  // in (a line item's quantity, …); a body that does not validate is never sent, so its raw form will do.
  const parsed = InvoiceInput.safeParse(body.invoice);
  const i = parsed.success ? parsed.data : body.invoice;
  const s = (v: unknown) => (v === undefined || v === null ? null : String(v));
  const out: Record<string, string | null> = {
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
  const text = (field: string, v: unknown) => {
    if (v !== undefined) out[field] = s(v);
  };
  text('promiseToPayDate', i.promiseToPayDate?.date);
  text('buyerId', i.customerDetails?.buyerId ?? i.customerId);
  text('customerName', i.customerName ?? i.customerDetails?.name);
  for (const f of [
    'referenceType',
    'referenceId',
    'referenceText',
    'irnNumber',
    'placeOfSupply',
    'erpId',
    'invoiceOriginSource',
  ] as const)
    text(f, i[f]);
  const digest = (listingField: string, v: unknown) => {
    if (v !== undefined && v !== null) out[`digest:${listingField}`] = fieldDigest(v);
  };
  digest('invoiceTax', i.invoiceTax);
  digest('discount', i.discount);
  digest('lineItems', i.lineItems);
  digest('invoiceAmountAdjustments', i.createInvoiceAdjustments);
  digest('tags', i.tags);
  digest('metaData', i.metaData);
  return out;
}
