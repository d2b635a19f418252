import type { BillingBody, MapContext, SourceRecord } from '../../../src/connector/types.js';
import type { InvoiceInputDraft } from '../../../src/billing/schemas/invoice.js';
import {
  checkBalance,
  checkPaidWithinTotal,
  collectWarnings,
  finalizeInvoice,
  invoiceIdFor,
  mapFail,
  mapOk,
  parseAmountOrZero,
  parseCalendarDate,
  parseOptionalAmount,
  tryWireNumber,
  type MapResult,
} from '../../../src/mapping/index.js';
import type { XeroInvoice } from '../schemas.js';
import { customerDetailsOf } from './customer-details.js';
import { mapDocumentAmounts } from './document-amounts.js';
import { xeroExchangeRate } from './exchange-rate.js';
import { xeroLookupsOf } from './xero-lookups.js';

/**
 * A Xero ACCREC invoice → the billing invoice body. Pure; never throws for bad data.
 * - ids: invoiceId = invoiceIdFor(connection, InvoiceID), erpId = InvoiceID, invoiceNumber = InvoiceNumber.
 * - dates: Date/DueDate (`/Date(ms+0000)/`, else DateString) as UTC calendar days.
 * - money: document-amounts.ts (Exclusive/Inclusive/NoTax, discounts inside LineAmount, CGST/SGST split).
 * - invoicePaidAmount = AmountPaid (cash); invoiceAdjustedAmount = AmountCredited (credit notes,
 *   prepayments and overpayments allocated). Checked: paid ≤ total and, unless VOIDED/DELETED (Xero zeroes
 *   AmountDue there but keeps the totals), Total − AmountPaid − AmountCredited = AmountDue.
 * - exchangeRate: exchange-rate.ts (CurrencyRate inverted; wrong-base organisation → FX_UNDERIVABLE).
 * - metaData: sourceSystem, sourceStatus = Xero Status as written (VOIDED stays a status; DELETED records
 *   come as SourceRecord.deleted and are never mapped into a void), sourceVersion, erpNumber, reference,
 *   lineAmountTypes.
 * - bills (ACCPAY) are UNSUPPORTED (the stream never asks for them).
 */
export function mapXeroInvoice(record: SourceRecord<XeroInvoice>, ctx: MapContext): MapResult<BillingBody> {
  const raw = record.raw;
  if (raw.Type !== 'ACCREC') return mapFail('UNSUPPORTED', `Xero ${raw.Type} document is not a sales invoice`, { field: 'Type' });
  const number = raw.InvoiceNumber?.trim();
  if (!number) return mapFail('MISSING_FIELD', 'InvoiceNumber is missing', { field: 'InvoiceNumber' });
  const currency = raw.CurrencyCode?.trim().toUpperCase();
  if (!currency) return mapFail('MISSING_FIELD', 'CurrencyCode is missing', { field: 'CurrencyCode' });
  if (!raw.Contact) return mapFail('MISSING_FIELD', 'Contact is missing', { field: 'Contact' });
  const date = parseCalendarDate(raw.Date ?? raw.DateString, 'Date');
  if (!date.ok) return date;
  const due = raw.DueDate || raw.DueDateString ? parseCalendarDate(raw.DueDate ?? raw.DueDateString, 'DueDate') : undefined;
  if (due && !due.ok) return due;

  const lookups = xeroLookupsOf(ctx.lookups);
  const amounts = mapDocumentAmounts(raw, currency, lookups, 'invoiceTax');
  if (!amounts.ok) return amounts;
  const { total } = amounts.value;
  const paid = parseAmountOrZero(raw.AmountPaid, 'AmountPaid');
  if (!paid.ok) return paid;
  const credited = parseAmountOrZero(raw.AmountCredited, 'AmountCredited');
  if (!credited.ok) return credited;
  const amountDue = parseOptionalAmount(raw.AmountDue, 'AmountDue');
  if (!amountDue.ok) return amountDue;
  const settled = raw.Status === 'VOIDED' || raw.Status === 'DELETED';
  const bad =
    checkPaidWithinTotal({ paid: paid.value, total, currency }) ??
    checkPaidWithinTotal({ paid: paid.value.plus(credited.value), total, currency }) ??
    (!settled && amountDue.value !== undefined
      ? checkBalance({ total, paid: paid.value, credited: credited.value, balance: amountDue.value, currency })
      : undefined);
  if (bad) return bad;

  const fx = xeroExchangeRate(currency, raw.CurrencyRate, ctx, lookups);
  if (!fx.ok) return fx;
  const paidWire = tryWireNumber(paid.value, currency, 'AmountPaid');
  if (!paidWire.ok) return paidWire;
  const creditedWire = tryWireNumber(credited.value, currency, 'AmountCredited');
  if (!creditedWire.ok) return creditedWire;

  const draft: InvoiceInputDraft = {
    invoiceId: invoiceIdFor(ctx.connectionId, raw.InvoiceID),
    invoiceNumber: number,
    invoiceDate: { date: date.value },
    ...(due ? { invoiceDueDate: { date: due.value } } : {}),
    invoiceSubtotal: amounts.value.wire.subtotal,
    invoiceTax: amounts.value.tax,
    invoiceTotal: amounts.value.wire.total,
    invoicePaidAmount: paidWire.value,
    invoiceAdjustedAmount: creditedWire.value,
    invoiceCurrency: currency,
    ...(fx.exchangeRate !== undefined ? { exchangeRate: fx.exchangeRate } : {}),
    lineItems: amounts.value.lineItems,
    customerDetails: customerDetailsOf(raw.Contact, ctx.connectionId),
    ...(raw.Contact.Name?.trim() ? { customerName: raw.Contact.Name.trim() } : {}),
    erpId: raw.InvoiceID,
    invoiceOriginSource: ctx.originSource,
    metaData: {
      sourceSystem: 'xero',
      sourceStatus: raw.Status,
      sourceVersion: record.version,
      erpNumber: number,
      ...(raw.Reference?.trim() ? { reference: raw.Reference.trim() } : {}),
      lineAmountTypes: raw.LineAmountTypes ?? null,
    },
  };
  const result = finalizeInvoice(draft, collectWarnings(amounts.value, fx));
  return result.ok ? mapOk({ kind: 'invoice', invoice: result.value }, result.warnings) : result;
}
