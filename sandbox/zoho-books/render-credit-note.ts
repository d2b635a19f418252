import { creditNoteBalanceMinor } from './generate-credit-notes.js';
import { convertMinor, toAmount } from '../kit/minor-units.js';
import { address, exchangeRate, renderLines, renderTaxes, timestamp, type RenderContext } from './render-context.js';
import type { CreditNoteRecord } from './store-records.js';
import { renderEinvoice } from './render-invoice.js';

/**
 * Wire shapes of a credit note. https://www.zoho.com/books/api/v3/credit-notes/#get-a-credit-note
 * The list row carries `last_modified_time` while the detail carries
 * `updated_time` (same instant): read the cursor from the list.
 */
export function renderCreditNoteRow(cn: CreditNoteRecord, ctx: RenderContext): Record<string, unknown> {
  return {
    creditnote_id: cn.creditnote_id,
    creditnote_number: cn.creditnote_number,
    status: cn.status,
    reference_number: cn.reference_number,
    date: cn.date,
    total: toAmount(cn.amounts.totalMinor),
    balance: toAmount(creditNoteBalanceMinor(cn)),
    customer_id: cn.customer_id,
    customer_name: cn.customer_name,
    currency_id: ctx.currency(cn.currency_code).currency_id,
    currency_code: cn.currency_code,
    exchange_rate: exchangeRate(cn.exchangeRateMicro),
    is_emailed: false,
    has_attachment: false,
    created_time: timestamp(ctx, cn.createdMs),
    last_modified_time: timestamp(ctx, cn.modifiedMs),
  };
}

export function renderCreditNoteDetail(cn: CreditNoteRecord, ctx: RenderContext): Record<string, unknown> {
  const a = cn.amounts;
  const fx = cn.exchangeRateMicro;
  const currency = ctx.currency(cn.currency_code);
  const lines = renderLines(ctx, cn.lines, a, fx, true).map((wire, i) => ({
    ...wire,
    invoice_id: cn.lines[i]?.invoice_id ?? '',
    invoice_item_id: cn.lines[i]?.invoice_item_id ?? '',
    account_id: ctx.salesAccountId,
    account_name: 'Sales',
  }));
  return {
    creditnote_id: cn.creditnote_id,
    creditnote_number: cn.creditnote_number,
    date: cn.date,
    status: cn.status,
    reference_number: cn.reference_number,
    customer_id: cn.customer_id,
    customer_name: cn.customer_name,
    email: ctx.contact(cn.customer_id)?.contact_persons.find((p) => p.is_primary_contact)?.email ?? '',
    currency_id: currency.currency_id,
    currency_code: cn.currency_code,
    currency_symbol: currency.currency_symbol,
    exchange_rate: exchangeRate(fx),
    gst_no: cn.gst_no,
    gst_treatment: cn.gst_treatment,
    place_of_supply: cn.place_of_supply,
    is_pre_gst: false,
    is_inclusive_tax: false,
    discount: 0,
    discount_type: cn.discount_type,
    is_discount_before_tax: cn.is_discount_before_tax,
    line_items: lines,
    sub_total: toAmount(a.subTotalMinor),
    taxes: renderTaxes(a),
    tax_total: toAmount(a.taxTotalMinor),
    adjustment: toAmount(a.adjustmentMinor),
    total: toAmount(a.totalMinor),
    balance: toAmount(creditNoteBalanceMinor(cn)),
    bcy_sub_total: toAmount(convertMinor(a.subTotalMinor, fx, 'micro')),
    bcy_tax_total: toAmount(convertMinor(a.taxTotalMinor, fx, 'micro')),
    bcy_total: toAmount(convertMinor(a.totalMinor, fx, 'micro')),
    invoices: cn.applications.map((app) => ({
      invoice_id: app.invoice_id,
      invoice_number: app.invoice_number,
      date: app.date,
      amount: toAmount(app.amountMinor),
    })),
    reason: cn.reason,
    billing_address: address(cn.billing_address),
    shipping_address: address(cn.shipping_address),
    created_time: timestamp(ctx, cn.createdMs),
    updated_time: timestamp(ctx, cn.modifiedMs),
    // India: e-invoiced like an invoice (generate-india.ts), and reporting tags as on invoices.
    ...(cn.einvoice ? { einvoice_details: renderEinvoice(cn.einvoice, cn.creditnote_id) } : {}),
    tags: cn.reportingTag ? [cn.reportingTag] : [],
    custom_fields: [],
  };
}
