import { convertMinor, toAmount } from '../kit/minor-units.js';
import {
  address,
  discountValue,
  exchangeRate,
  renderLines,
  renderTaxes,
  timestamp,
  type RenderContext,
} from './render-context.js';
import { invoiceTdsMinor } from './generate-india.js';
import { invoiceBalanceMinor, withheldMinor } from './invoice-status.js';
import { SALESPEOPLE } from '../kit/sample-names.js';
import type { EinvoiceRecord, InvoiceRecord } from './store-records.js';

/** Wire shapes of an invoice. https://www.zoho.com/books/api/v3/invoices/#get-an-invoice */
function money(inv: InvoiceRecord, ctx: RenderContext) {
  const credits = ctx.creditsAppliedMinor(inv.invoice_id);
  const paid = inv.payments.reduce((s, p) => s + p.amountMinor, 0);
  const lastPayment = inv.payments.reduce((d, p) => (p.date > d ? p.date : d), '');
  return { credits, paid, withheld: withheldMinor(inv), balance: invoiceBalanceMinor(inv, credits), lastPayment };
}

/** A salesperson's id: fixed per name (Zoho's salesperson list is organisation settings). */
function salespersonId(name: string): string {
  return name
    ? `18900000000094${String(SALESPEOPLE.indexOf(name as (typeof SALESPEOPLE)[number])).padStart(2, '0')}`
    : '';
}

/**
 * India: `einvoice_details`, TDS (`tax_amount_withheld`, `tds_summary`), reverse charge, reporting tags and
 * custom fields (generate-india.ts names the sources of each shape).
 */
function indiaFields(inv: InvoiceRecord, withheld: number): Record<string, unknown> {
  const a = inv.amounts;
  const rc = inv.reverseChargeTaxMinor !== undefined && a.taxTotalMinor === 0;
  const e = inv.einvoice;
  const tds = inv.tds;
  return {
    is_reverse_charge_applied: rc,
    reverse_charge_tax_total: rc ? toAmount(inv.reverseChargeTaxMinor!) : 0,
    tax_amount_withheld: toAmount(withheld),
    tds_summary: tds
      ? [
          {
            tax_id: tds.tax_id,
            tax_name: tds.tax_name,
            tax_percentage: tds.basisPoints / 100,
            tax_amount: toAmount(invoiceTdsMinor(inv)),
          },
        ]
      : [],
    ...(e ? { einvoice_details: renderEinvoice(e, inv.invoice_id) } : {}),
    tags: inv.reportingTag ? [inv.reportingTag] : [],
    custom_fields: inv.customFields ?? [],
  };
}

/** `GET /invoices` row: a summary, deliberately without `line_items`, `taxes` or addresses. */
export function renderInvoiceRow(inv: InvoiceRecord, ctx: RenderContext): Record<string, unknown> {
  const m = money(inv, ctx);
  return {
    invoice_id: inv.invoice_id,
    ach_payment_initiated: false,
    customer_name: inv.customer_name,
    customer_id: inv.customer_id,
    status: inv.status,
    invoice_number: inv.invoice_number,
    reference_number: inv.reference_number,
    date: inv.date,
    due_date: inv.due_date,
    currency_id: ctx.currency(inv.currency_code).currency_id,
    currency_code: inv.currency_code,
    is_viewed_by_client: inv.is_viewed_by_client,
    has_attachment: false,
    client_viewed_time: '',
    total: toAmount(inv.amounts.totalMinor),
    balance: toAmount(m.balance),
    created_time: timestamp(ctx, inv.createdMs),
    last_modified_time: timestamp(ctx, inv.modifiedMs),
    is_emailed: inv.status !== 'draft',
    reminders_sent: 0,
    last_reminder_sent_date: '',
    payment_expected_date: '',
    last_payment_date: m.lastPayment,
    custom_fields: [],
    documents: '',
    location_id: '',
    location_name: '',
    salesperson_id: salespersonId(inv.salesperson_name),
    salesperson_name: inv.salesperson_name,
    shipping_charge: toAmount(inv.shippingMinor),
    adjustment: toAmount(inv.adjustmentMinor),
    write_off_amount: toAmount(inv.writeOffMinor),
    exchange_rate: exchangeRate(inv.exchangeRateMicro),
  };
}

/** `GET /invoices/{id}`: the full record with `line_items`, `taxes`, addresses, GST and `bcy_*` fields. */
export function renderInvoiceDetail(inv: InvoiceRecord, ctx: RenderContext): Record<string, unknown> {
  const m = money(inv, ctx);
  const a = inv.amounts;
  const fx = inv.exchangeRateMicro;
  const bcy = (minor: number): number => toAmount(convertMinor(minor, fx, 'micro'));
  const currency = ctx.currency(inv.currency_code);
  const persons =
    ctx.contact(inv.customer_id)?.contact_persons.filter((p) => inv.contact_person_ids.includes(p.contact_person_id)) ??
    [];
  const itemLevel = inv.discount_type === 'item_level';
  return {
    invoice_id: inv.invoice_id,
    invoice_number: inv.invoice_number,
    // The customer-facing share link Zoho gives every sent invoice (drafts have none); the worker
    // attaches it to the billing invoice once, as INVOICE_FOR_BUYER.
    ...(inv.status === 'draft'
      ? {}
      : { invoice_url: `https://books.zoho.in/portal/sandbox/invoices/${inv.invoice_id}.pdf` }),
    reference_number: inv.reference_number,
    date: inv.date,
    due_date: inv.due_date,
    payment_terms: inv.payment_terms,
    payment_terms_label: inv.payment_terms_label,
    status: inv.status,
    customer_id: inv.customer_id,
    customer_name: inv.customer_name,
    contact_persons_associated: persons.map((p) => ({
      contact_person_id: p.contact_person_id,
      first_name: p.first_name,
      last_name: p.last_name,
      contact_person_email: p.email,
      phone: p.phone,
      mobile: p.mobile,
    })),
    currency_id: currency.currency_id,
    currency_code: inv.currency_code,
    currency_symbol: currency.currency_symbol,
    exchange_rate: exchangeRate(fx),
    gst_no: inv.gst_no,
    gst_treatment: inv.gst_treatment,
    place_of_supply: inv.place_of_supply,
    is_pre_gst: false,
    is_inclusive_tax: false,
    discount: itemLevel ? 0 : discountValue(inv.entityDiscount),
    discount_percent: !itemLevel && inv.entityDiscount?.kind === 'percent' ? inv.entityDiscount.basisPoints / 100 : 0,
    discount_type: inv.discount_type,
    is_discount_before_tax: inv.is_discount_before_tax,
    discount_amount: toAmount(a.entityDiscountMinor),
    discount_total: toAmount(a.entityDiscountMinor + a.lineDiscountMinor),
    line_items: renderLines(ctx, inv.lines, a, fx, itemLevel, inv.tds),
    sub_total: toAmount(a.subTotalMinor),
    taxes: renderTaxes(a),
    tax_total: toAmount(a.taxTotalMinor),
    shipping_charge: toAmount(a.shippingMinor),
    adjustment: toAmount(a.adjustmentMinor),
    adjustment_description: inv.adjustment_description,
    roundoff_value: 0,
    total: toAmount(a.totalMinor),
    payment_made: toAmount(m.paid),
    credits_applied: toAmount(m.credits),
    write_off_amount: toAmount(inv.writeOffMinor),
    balance: toAmount(m.balance),
    ...indiaFields(inv, m.withheld),
    bcy_sub_total: bcy(a.subTotalMinor),
    bcy_discount_total: bcy(a.entityDiscountMinor + a.lineDiscountMinor),
    bcy_shipping_charge: bcy(a.shippingMinor),
    bcy_adjustment: bcy(a.adjustmentMinor),
    bcy_tax_total: bcy(a.taxTotalMinor),
    bcy_total: bcy(a.totalMinor),
    last_payment_date: m.lastPayment,
    payment_expected_date: '',
    is_viewed_by_client: inv.is_viewed_by_client,
    is_emailed: inv.status !== 'draft',
    billing_address: address(inv.billing_address),
    shipping_address: address(inv.shipping_address),
    notes: inv.notes,
    terms: inv.terms,
    salesperson_id: salespersonId(inv.salesperson_name),
    salesperson_name: inv.salesperson_name,
    created_time: timestamp(ctx, inv.createdMs),
    last_modified_time: timestamp(ctx, inv.modifiedMs),
  };
}

/**
 * `einvoice_details` as a live e-invoiced organisation shows it (generate-india.ts names the capture), on
 * invoices and credit notes alike; the QR link names the document's id.
 */
export function renderEinvoice(e: EinvoiceRecord, documentId: string): Record<string, unknown> {
  return {
    inv_ref_num: e.irn,
    ack_number: e.ackNumber,
    ack_date: e.ackDate,
    status: e.status,
    status_formatted: e.status[0]!.toUpperCase() + e.status.slice(1),
    is_cancellable: e.status === 'pushed',
    qr_link: e.irn ? `https://books.zoho.in/einvoice/qrcode?eInvoiceID=2-${documentId}` : '',
  };
}
