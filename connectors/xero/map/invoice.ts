import type { InvoiceInputDraft } from '../../../src/billing/schemas/invoice.js';
import type { BillingBody, MapContext, SourceRecord } from '../../../src/connector/types.js';
import {
  checkBalance,
  checkPaidWithinTotal,
  finalizeInvoice,
  invoiceIdFor,
  mapFail,
  mapOk,
  parseAmountOrZero,
  parseCalendarDate,
  parseOptionalAmount,
  type MapResult,
  wireAmount,
  sourceMeta,
  nonBlank,
} from '../../../src/mapping/index.js';
import { mapping, parseRecord } from '../../../src/mapping/steps.js';
import { XeroInvoice } from '../schemas.js';
import { readLookups } from '../streams/lookups.js';
import { currencyOf, exchangeRateOf } from './fx.js';
import { amountsOf } from './totals.js';
import { customerDetailsOf } from './party.js';
import { trackingFieldsOf } from './tags.js';

/**
 * A Xero ACCREC invoice (https://developer.xero.com/documentation/api/accounting/invoices) → the billing
 * invoice body. Pure; never throws for bad data.
 * - ids: invoiceId = invoiceIdFor(connection, InvoiceID), erpId = InvoiceID, invoiceNumber = InvoiceNumber.
 * - dates: Date/DueDate (`/Date(ms+0000)/`, else DateString) as UTC calendar days; promiseToPayDate =
 *   ExpectedPaymentDate (the date the customer said they would pay), same form.
 * - referenceText = Reference ("ACCREC only – additional reference number"); tags = the lines' tracking
 *   categories (tags.ts).
 * - money: lines.ts (Exclusive/Inclusive/NoTax, discounts inside LineAmount), tax.ts (CGST/SGST split).
 * - invoicePaidAmount = AmountPaid (cash); invoiceAdjustedAmount = AmountCredited (credit notes,
 *   prepayments and overpayments allocated). Checked: paid ≤ total and, unless VOIDED/DELETED (Xero zeroes
 *   AmountDue there but keeps the totals), Total − AmountPaid − AmountCredited = AmountDue.
 * - exchangeRate: fx.ts (CurrencyRate inverted; wrong-base organisation → FX_UNDERIVABLE).
 * - metaData: sourceSystem, sourceStatus = Xero Status as written (VOIDED stays a status; DELETED records
 *   come as SourceRecord.deleted and are never mapped into a void), sourceVersion, erpNumber, reference,
 *   lineAmountTypes.
 * - bills (ACCPAY) are UNSUPPORTED (the stream never asks for them).
 */
export function toInvoice(record: SourceRecord, ctx: MapContext): MapResult<BillingBody> {
  return mapping((s) => {
    const raw = parseRecord(s, XeroInvoice, record.raw, 'invoice', 'Xero');
    if (raw.Type !== 'ACCREC')
      s.fail(mapFail('UNSUPPORTED', `Xero ${raw.Type} document is not a sales invoice`, { field: 'Type' }));
    const number =
      raw.InvoiceNumber?.trim() ||
      s.fail(mapFail('MISSING_FIELD', 'InvoiceNumber is missing', { field: 'InvoiceNumber' }));
    const currency = currencyOf(s, raw.CurrencyCode);
    const contact = raw.Contact ?? s.fail(mapFail('MISSING_FIELD', 'Contact is missing', { field: 'Contact' }));
    const date = s.take(parseCalendarDate(raw.Date ?? raw.DateString, 'Date'));
    const due =
      raw.DueDate || raw.DueDateString
        ? s.take(parseCalendarDate(raw.DueDate ?? raw.DueDateString, 'DueDate'))
        : undefined;
    // Xero shows ExpectedPaymentDate on sales invoices "when this has been set" (invoices page); its
    // twin PlannedPaymentDate is for bills, which this mapper never takes.
    const promised = raw.ExpectedPaymentDate
      ? s.take(parseCalendarDate(raw.ExpectedPaymentDate, 'ExpectedPaymentDate'))
      : undefined;
    const reference = nonBlank(raw.Reference);

    const lookups = readLookups(ctx.lookups);
    const a = amountsOf(s, raw, currency, lookups, 'invoiceTax');
    const paid = s.take(parseAmountOrZero(raw.AmountPaid, 'AmountPaid'));
    const credited = s.take(parseAmountOrZero(raw.AmountCredited, 'AmountCredited'));
    const amountDue = s.take(parseOptionalAmount(raw.AmountDue, 'AmountDue'));
    const settled = raw.Status === 'VOIDED' || raw.Status === 'DELETED';
    s.check(checkPaidWithinTotal({ paid, total: a.total, currency }));
    s.check(checkPaidWithinTotal({ paid: paid.plus(credited), total: a.total, currency }));
    if (!settled && amountDue !== undefined)
      s.check(checkBalance({ total: a.total, paid, credited, balance: amountDue, currency }));

    const exchangeRate = exchangeRateOf(s, currency, raw.CurrencyRate, ctx, lookups);
    const fields = trackingFieldsOf(
      s,
      raw.LineItems,
      ctx.fields,
      sourceMeta({
        system: 'xero',
        status: raw.Status,
        version: record.version,
        erpNumber: number,
        reference,
        lineAmountTypes: raw.LineAmountTypes ?? null,
      }),
    );
    const draft: InvoiceInputDraft = {
      invoiceId: invoiceIdFor(ctx.connectionId, raw.InvoiceID),
      invoiceNumber: number,
      invoiceDate: { date },
      ...(due ? { invoiceDueDate: { date: due } } : {}),
      ...(promised ? { promiseToPayDate: { date: promised } } : {}),
      invoiceSubtotal: a.wire.subtotal,
      invoiceTax: a.tax,
      invoiceTotal: a.wire.total,
      invoicePaidAmount: wireAmount(s, paid, currency, 'AmountPaid'),
      invoiceAdjustedAmount: wireAmount(s, credited, currency, 'AmountCredited'),
      invoiceCurrency: currency,
      ...(exchangeRate !== undefined ? { exchangeRate } : {}),
      lineItems: a.lineItems,
      customerDetails: customerDetailsOf(contact, ctx.connectionId, lookups),
      ...(contact.Name?.trim() ? { customerName: contact.Name.trim() } : {}),
      ...(reference ? { referenceText: reference } : {}),
      ...(fields.tags ? { tags: fields.tags } : {}),
      erpId: raw.InvoiceID,
      invoiceOriginSource: ctx.originSource,
      metaData: fields.metaData,
    };
    const result = finalizeInvoice(draft, s.warnings);
    return result.ok ? mapOk<BillingBody>({ kind: 'invoice', invoice: result.value }, result.warnings) : result;
  });
}
