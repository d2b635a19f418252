import type { BillingBody, MapContext, SourceRecord } from '../../../src/connector/types.js';
import type { CreditNoteInputDraft } from '../../../src/billing/schemas/credit-note.js';
import {
  checkBalance,
  collectWarnings,
  creditNoteIdFor,
  finalizeCreditNote,
  invoiceIdFor,
  mapFail,
  mapOk,
  parseAmount,
  parseAmountOrZero,
  parseCalendarDate,
  parseOptionalAmount,
  sumMoney,
  tryWireNumber,
  type Decimal,
  type MapResult,
} from '../../../src/mapping/index.js';
import type { XeroCreditNote } from '../schemas.js';
import { customerDetailsOf } from './customer-details.js';
import { mapDocumentAmounts } from './document-amounts.js';
import { xeroExchangeRate } from './exchange-rate.js';
import { xeroLookupsOf } from './xero-lookups.js';

/**
 * A Xero ACCRECCREDIT credit note → the billing credit note body.
 * - Money, tax, exchange rate, customer and metaData as for invoices (invoice.ts).
 * - appliedToInvoices: each live Allocation (IsDeleted not true, Amount > 0) → {invoiceId =
 *   invoiceIdFor(connection, Allocation.Invoice.InvoiceID), invoiceNumber, amount}, so billing links the
 *   credit to the same invoice ids our invoice stream upserts.
 * - creditNoteRemainingAmount = RemainingCredit. Unless VOIDED/DELETED/DRAFT: Total − Σ allocations −
 *   Σ cash refunds (Payments) = RemainingCredit, else AMOUNTS_INCONSISTENT.
 * - reason = Reference.
 */
export function mapXeroCreditNote(record: SourceRecord<XeroCreditNote>, ctx: MapContext): MapResult<BillingBody> {
  const raw = record.raw;
  if (raw.Type !== 'ACCRECCREDIT') return mapFail('UNSUPPORTED', `Xero ${raw.Type} credit note is not a sales credit note`, { field: 'Type' });
  const number = raw.CreditNoteNumber?.trim();
  if (!number) return mapFail('MISSING_FIELD', 'CreditNoteNumber is missing', { field: 'CreditNoteNumber' });
  const currency = raw.CurrencyCode?.trim().toUpperCase();
  if (!currency) return mapFail('MISSING_FIELD', 'CurrencyCode is missing', { field: 'CurrencyCode' });
  if (!raw.Contact) return mapFail('MISSING_FIELD', 'Contact is missing', { field: 'Contact' });
  const date = parseCalendarDate(raw.Date ?? raw.DateString, 'Date');
  if (!date.ok) return date;

  const lookups = xeroLookupsOf(ctx.lookups);
  const amounts = mapDocumentAmounts(raw, currency, lookups, 'creditNoteTax');
  if (!amounts.ok) return amounts;

  const applications: Array<{ invoiceId: string; invoiceNumber?: string; amount: number }> = [];
  const allocated: Decimal[] = [];
  for (const [i, a] of (raw.Allocations ?? []).entries()) {
    if (a.IsDeleted === true) continue;
    if (!a.Invoice?.InvoiceID) return mapFail('MISSING_FIELD', `Allocations.${i}.Invoice.InvoiceID is missing`, { field: `Allocations.${i}.Invoice` });
    const amount = parseAmount(a.Amount, `Allocations.${i}.Amount`);
    if (!amount.ok) return amount;
    if (amount.value.isZero()) continue;
    const wire = tryWireNumber(amount.value, currency, `Allocations.${i}.Amount`);
    if (!wire.ok) return wire;
    allocated.push(amount.value);
    applications.push({
      invoiceId: invoiceIdFor(ctx.connectionId, a.Invoice.InvoiceID),
      ...(a.Invoice.InvoiceNumber?.trim() ? { invoiceNumber: a.Invoice.InvoiceNumber.trim() } : {}),
      amount: wire.value,
    });
  }
  const refunds: Decimal[] = [];
  for (const [i, p] of (raw.Payments ?? []).entries()) {
    if (p.Status === 'DELETED') continue;
    const amount = parseAmountOrZero(p.Amount, `Payments.${i}.Amount`);
    if (!amount.ok) return amount;
    refunds.push(amount.value);
  }
  const remaining = parseOptionalAmount(raw.RemainingCredit, 'RemainingCredit');
  if (!remaining.ok) return remaining;
  if (!['VOIDED', 'DELETED', 'DRAFT', 'SUBMITTED'].includes(raw.Status) && remaining.value !== undefined) {
    const bad = checkBalance({ total: amounts.value.total, paid: sumMoney(refunds), credited: sumMoney(allocated), balance: remaining.value, currency });
    if (bad) return { ...bad, field: 'RemainingCredit' };
  }
  let remainingWire: number | undefined;
  if (remaining.value !== undefined) {
    const w = tryWireNumber(remaining.value, currency, 'RemainingCredit');
    if (!w.ok) return w;
    remainingWire = w.value;
  }
  const fx = xeroExchangeRate(currency, raw.CurrencyRate, ctx, lookups);
  if (!fx.ok) return fx;

  const draft: CreditNoteInputDraft = {
    creditNoteId: creditNoteIdFor(ctx.connectionId, raw.CreditNoteID),
    creditNoteNumber: number,
    creditNoteDate: { date: date.value },
    creditNoteSubtotal: amounts.value.wire.subtotal,
    creditNoteTax: amounts.value.tax,
    creditNoteTotal: amounts.value.wire.total,
    ...(remainingWire !== undefined ? { creditNoteRemainingAmount: remainingWire } : {}),
    creditNoteCurrency: currency,
    ...(fx.exchangeRate !== undefined ? { exchangeRate: fx.exchangeRate } : {}),
    lineItems: amounts.value.lineItems,
    customerDetails: customerDetailsOf(raw.Contact, ctx.connectionId),
    ...(raw.Contact.Name?.trim() ? { customerName: raw.Contact.Name.trim() } : {}),
    ...(applications.length ? { appliedToInvoices: applications } : {}),
    ...(raw.Reference?.trim() ? { reason: raw.Reference.trim() } : {}),
    erpId: raw.CreditNoteID,
    creditNoteOriginSource: ctx.originSource,
    metaData: {
      sourceSystem: 'xero',
      sourceStatus: raw.Status,
      sourceVersion: record.version,
      erpNumber: number,
      lineAmountTypes: raw.LineAmountTypes ?? null,
    },
  };
  const result = finalizeCreditNote(draft, collectWarnings(amounts.value, fx));
  return result.ok ? mapOk({ kind: 'credit-note', creditNote: result.value }, result.warnings) : result;
}
