import { toAmount } from '../kit/minor-units.js';
import { address, timestamp, type RenderContext } from './render-context.js';
import type { ContactRecord } from './store-records.js';

/** Receivable figures derived from the contact's invoices and credit notes at response time. */
export interface Receivables {
  outstandingMinor: number;
  outstandingBcyMinor: number;
  unusedCreditsMinor: number;
  unusedCreditsBcyMinor: number;
}

export const NO_RECEIVABLES: Receivables = {
  outstandingMinor: 0,
  outstandingBcyMinor: 0,
  unusedCreditsMinor: 0,
  unusedCreditsBcyMinor: 0,
};

/** Wire shapes of a contact. https://www.zoho.com/books/api/v3/contacts/#get-contact */
function common(c: ContactRecord, ctx: RenderContext, r: Receivables): Record<string, unknown> {
  const primary = c.contact_persons.find((p) => p.is_primary_contact);
  return {
    contact_id: c.contact_id,
    contact_name: c.contact_name,
    company_name: c.company_name,
    contact_type: c.contact_type,
    customer_sub_type: c.customer_sub_type,
    status: c.status,
    payment_terms: c.payment_terms,
    payment_terms_label: c.payment_terms_label,
    currency_id: ctx.currency(c.currency_code).currency_id,
    currency_code: c.currency_code,
    outstanding_receivable_amount: toAmount(r.outstandingMinor),
    outstanding_receivable_amount_bcy: toAmount(r.outstandingBcyMinor),
    unused_credits_receivable_amount: toAmount(r.unusedCreditsMinor),
    unused_credits_receivable_amount_bcy: toAmount(r.unusedCreditsBcyMinor),
    first_name: primary?.first_name ?? '',
    last_name: primary?.last_name ?? '',
    email: primary?.email ?? '',
    phone: primary?.phone ?? '',
    mobile: primary?.mobile ?? '',
    website: c.website,
    gst_no: c.gst_no,
    gst_treatment: c.gst_treatment,
    place_of_contact: c.place_of_contact,
  };
}

export function renderContactRow(c: ContactRecord, ctx: RenderContext, r: Receivables): Record<string, unknown> {
  return {
    ...common(c, ctx, r),
    customer_name: c.contact_type === 'customer' ? c.contact_name : '',
    vendor_name: c.contact_type === 'vendor' ? c.contact_name : '',
    created_time: timestamp(ctx, c.createdMs),
    last_modified_time: timestamp(ctx, c.modifiedMs),
  };
}

export function renderContactDetail(c: ContactRecord, ctx: RenderContext, r: Receivables): Record<string, unknown> {
  return {
    ...common(c, ctx, r),
    currency_symbol: ctx.currency(c.currency_code).currency_symbol,
    is_taxable: c.gst_treatment !== 'overseas',
    billing_address: address(c.billing_address),
    shipping_address: address(c.shipping_address),
    contact_persons: c.contact_persons.map((p) => ({ ...p })),
    custom_fields: [],
    notes: c.notes,
    created_time: timestamp(ctx, c.createdMs),
    last_modified_time: timestamp(ctx, c.modifiedMs),
  };
}
