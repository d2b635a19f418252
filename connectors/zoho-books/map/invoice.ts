import type { InvoiceInputDraft } from '../../../src/billing/schemas/index.js';
import {
  checkBalance,
  checkPaidWithinTotal,
  finalizeInvoice,
  invoiceIdFor,
  mapOk,
  parseAmountOrZero,
  parseCalendarDate,
  parseOptionalAmount,
  type MapResult,
  wireAmount,
  sourceMeta,
} from '../../../src/mapping/index.js';
import type { BillingBody, MapContext, SourceRecord } from '../../../src/connector/types.js';
import { mapping, parseRecord, type Steps } from '../../../src/mapping/steps.js';
import { ZohoInvoice } from '../schemas.js';
import { readLookups, type ZohoLookups } from '../streams/lookups.js';
import { currencyOf, exchangeRateOf } from './fx.js';
import { customerOfDocument } from './party.js';
import { supplyOf } from './tax.js';
import { einvoiceOf, type EinvoiceFields } from './einvoice.js';
import { labelsOf } from './labels.js';
import { supplyTypeOf } from './supply-type.js';
import { withheldTdsOf } from './tds.js';
import { adjustmentsOf, amountsOf, type DocumentAmounts } from './totals.js';

/**
 * Zoho `GET /invoices/{id}` (https://www.zoho.com/books/api/v3/invoices/) → billing invoice input
 * (amounts: totals.ts, lines.ts, tax.ts; exchange rate: fx.ts; customer: party.ts).
 *
 * Paid and adjusted amounts, chosen so that billing's outstanding (total − paid − adjusted) equals
 * Zoho's `balance`:
 * - invoicePaidAmount     = payment_made (cash received);
 * - invoiceAdjustedAmount = credits_applied + write_off_amount + tax_amount_withheld (everything else that
 *   reduced what is due; the TDS the customer withheld is settled, not cash: tds.ts).
 *   Credit notes are also synced on their own with their applications (appliedToInvoices), which billing
 *   shows as creditNoteAdjustedAmount without touching invoiceAdjustedAmount, so nothing counts twice.
 * Both, and the total, subtotal and tax, are Zoho's figures to the paisa (reconciliation compares them).
 *
 * India: the e-invoice (IRN, acknowledgement, status: einvoice.ts), TDS withheld (tds.ts), reverse charge
 * (totals.ts) and the supply type (supply-type.ts); reporting tags, custom fields and salesperson: labels.ts.
 *
 * Status: Zoho's status travels as metaData.sourceStatus ("void", "draft", "partially_paid"...); voids are
 * never deletes and drafts are mapped like any other invoice. The balance check is skipped for both
 * (Zoho keeps a void's old balance). `invoice_url`, when Zoho has one, is the link billing attaches to the
 * invoice (document-url.ts).
 */
export function toInvoice(record: SourceRecord, ctx: MapContext<ZohoLookups>): MapResult<BillingBody> {
  return mapping((s) => {
    const inv = parseRecord(s, ZohoInvoice, record.raw, 'invoice', 'Zoho');
    const lookups = s.take(readLookups(ctx.lookups));
    const currency = currencyOf(s, inv.currency_code);
    const a = amountsOf(s, inv, lookups, currency);
    const settled = settlementOf(s, inv, a, currency);
    const { paid, credits, writeOff, tds } = settled;
    const einvoice = einvoiceOf(s, inv.einvoice_details);
    const exchangeRate = exchangeRateOf(s, inv, a, ctx, lookups);
    const adjustments = adjustmentsOf(s, a, inv.adjustment_description);
    const invoiceDate = inv.date ? s.take(parseCalendarDate(inv.date, 'date')) : undefined;
    const dueDate = inv.due_date ? s.take(parseCalendarDate(inv.due_date, 'due_date')) : undefined;
    const customerName = inv.customer_name?.trim() || undefined;
    const reference = inv.reference_number?.trim() || undefined;
    const invoiceTax = tds.tdsTax ? { ...a.tax, tdsTax: tds.tdsTax, tds: tds.tdsTax.tds } : a.tax;

    const labels = labelsOf(s, inv, ctx.fields, invoiceMetaOf(s, { record, inv, a, currency, settled, einvoice }));

    const draft: InvoiceInputDraft = {
      invoiceId: invoiceIdFor(ctx.connectionId, inv.invoice_id),
      invoiceNumber: inv.invoice_number,
      ...(invoiceDate ? { invoiceDate: { date: invoiceDate } } : {}),
      ...(dueDate ? { invoiceDueDate: { date: dueDate } } : {}),
      invoiceSubtotal: wireAmount(s, a.subtotal, currency, 'sub_total'),
      invoiceTax,
      invoiceAdjustedAmount: wireAmount(
        s,
        credits.plus(writeOff).plus(tds.withheld),
        currency,
        'credits_applied + write_off_amount + tax_amount_withheld',
      ),
      invoicePaidAmount: wireAmount(s, paid, currency, 'payment_made'),
      ...(a.discount ? { discount: a.discount } : {}),
      invoiceTotal: wireAmount(s, a.total, currency, 'total'),
      ...(customerName ? { customerName } : {}),
      ...(inv.customer_id ? { customerDetails: customerOfDocument(s, inv, ctx) } : {}),
      ...supplyOf(s, inv, a.kinds, lookups),
      invoiceCurrency: currency,
      ...(exchangeRate !== undefined ? { exchangeRate } : {}),
      lineItems: a.lineItems,
      ...(reference ? { referenceText: reference } : {}),
      ...(einvoice.irnNumber ? { irnNumber: einvoice.irnNumber } : {}),
      ...(adjustments.length > 0 ? { createInvoiceAdjustments: adjustments } : {}),
      erpId: inv.invoice_id,
      invoiceOriginSource: ctx.originSource,
      ...(labels.tags ? { tags: labels.tags } : {}),
      metaData: labels.metaData,
    };
    const result = finalizeInvoice(draft, [...new Set(s.warnings)]);
    return result.ok ? mapOk<BillingBody>({ kind: 'invoice', invoice: result.value }, result.warnings) : result;
  });
}

/** What was paid, credited, written off and withheld of the invoice, checked against its total and Zoho's balance. */
function settlementOf(s: Steps, inv: ZohoInvoice, a: DocumentAmounts, currency: string) {
  const paid = s.take(parseAmountOrZero(inv.payment_made, 'payment_made'));
  const credits = s.take(parseAmountOrZero(inv.credits_applied, 'credits_applied'));
  const writeOff = s.take(parseAmountOrZero(inv.write_off_amount, 'write_off_amount'));
  const balance = s.take(parseOptionalAmount(inv.balance, 'balance'));
  const tds = withheldTdsOf(s, inv, a.subtotal, currency);
  const status = inv.status?.trim().toLowerCase() || 'unknown';
  s.check(checkPaidWithinTotal({ paid, total: a.total, currency }));
  if (balance && status !== 'void' && status !== 'draft') {
    s.check(
      checkBalance({
        total: a.total,
        paid,
        credited: credits,
        writtenOff: writeOff,
        withheld: tds.withheld,
        balance,
        currency,
      }),
    );
  }
  return { paid, credits, writeOff, tds, status };
}

/** The invoice's metaData: Zoho's status and version, the settlement's parts, GST and reverse charge, e-invoice (labels.ts adds the reporting tags and custom fields the connection's rules leave there). */
function invoiceMetaOf(
  s: Steps,
  m: {
    record: SourceRecord;
    inv: ZohoInvoice;
    a: DocumentAmounts;
    currency: string;
    settled: ReturnType<typeof settlementOf>;
    einvoice: EinvoiceFields;
  },
) {
  const { record, a, currency, einvoice } = m;
  const { status, credits, writeOff, tds } = m.settled;
  const gstTreatment = m.inv.gst_treatment?.trim() || undefined;
  const rc = a.reverseCharge;
  return sourceMeta({
    system: 'zoho-books',
    status,
    version: record.version,
    creditsApplied: wireAmount(s, credits, currency, 'credits_applied'),
    writeOffAmount: wireAmount(s, writeOff, currency, 'write_off_amount'),
    taxAmountWithheld: tds.tdsTax?.tds,
    gstTreatment: gstTreatment || undefined,
    supplyType: supplyTypeOf(gstTreatment?.toLowerCase(), a.kinds),
    reverseCharge: rc ? true : undefined,
    reverseChargeTaxTotal: rc ? wireAmount(s, rc.total, currency, 'reverse_charge_tax_total') : undefined,
    reverseChargeCgst: rc?.tax.cgst || undefined,
    reverseChargeSgst: rc?.tax.sgst || undefined,
    reverseChargeIgst: rc?.tax.igst || undefined,
    reverseChargeCess: rc?.tax.cessTax?.cess || undefined,
    ...einvoice.meta,
  });
}
