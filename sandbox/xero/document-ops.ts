import { Money } from '../kit/minor-units.js';
import { addAmounts, computeLine, computeTotals, subAmounts, type LineSpec } from './document-amounts.js';
import type { TenantProfile } from './tenants.js';
import { dateString, msDate, utcDay, dayMs } from './xero-date.js';
import type {
  LineAmountTypes,
  XeroContact,
  XeroContactSummary,
  XeroCreditNote,
  XeroInvoice,
  XeroLineItem,
} from './xero-records.js';

/**
 * Building documents and the lifecycle changes Xero allows on them, as pure functions over the wire
 * records, keeping every amount exact (decimal arithmetic, document-amounts.ts):
 * - payment: AUTHORISED only, at most AmountDue; AmountDue 0 → PAID with FullyPaidOnDate;
 * - void: AUTHORISED with no payments and no credits → VOIDED (totals kept, AmountDue 0);
 * - delete: DRAFT or SUBMITTED → DELETED (AmountDue 0); records are never removed
 *   (Xero deletes draft invoices and voids approved ones: https://developer.xero.com/documentation/api/accounting/invoices);
 * - allocation of a credit note to an invoice of the same contact and currency, at most the credit left
 *   and the invoice's AmountDue: invoice AmountCredited up, AmountDue down, credit RemainingCredit down.
 * Each returns an error message instead of changing anything when Xero would refuse.
 */
export class DocumentRuleError extends Error {}

export function contactSummary(c: XeroContact): XeroContactSummary {
  return {
    ContactID: c.ContactID,
    Name: c.Name,
    Addresses: [],
    Phones: [],
    ContactGroups: [],
    ContactPersons: [],
    HasValidationErrors: false,
  };
}

export function taxRatePercent(tenant: TenantProfile, taxType: string): string {
  const rate = tenant.taxRates.find((r) => r.TaxType === taxType);
  if (!rate) throw new DocumentRuleError(`TaxType '${taxType}' is not a valid tax type`);
  return String(rate.EffectiveRate);
}

export function computeLines(
  tenant: TenantProfile,
  specs: readonly LineSpec[],
  types: LineAmountTypes,
  currency: string,
): XeroLineItem[] {
  return specs.map((s) =>
    computeLine(s, types, new Money(types === 'NoTax' ? '0' : taxRatePercent(tenant, s.TaxType)), currency),
  );
}

export interface InvoiceParams {
  type: XeroInvoice['Type'];
  id: string;
  number: string;
  reference: string;
  contact: XeroContact;
  currency: string;
  currencyRate: number;
  day: string;
  dueDay: string;
  types: LineAmountTypes;
  lines: readonly LineSpec[];
  status: 'DRAFT' | 'SUBMITTED' | 'AUTHORISED';
  atMs: number;
}

export function buildInvoice(tenant: TenantProfile, p: InvoiceParams): XeroInvoice {
  const lines = computeLines(tenant, p.lines, p.types, p.currency);
  const totals = computeTotals(lines, p.types, p.currency);
  const date = dayMs(p.day);
  const due = dayMs(p.dueDay);
  return {
    Type: p.type,
    InvoiceID: p.id,
    InvoiceNumber: p.number,
    Reference: p.reference,
    Contact: contactSummary(p.contact),
    Date: msDate(date),
    DateString: dateString(date),
    DueDate: msDate(due),
    DueDateString: dateString(due),
    Status: p.status,
    LineAmountTypes: p.types,
    LineItems: lines,
    ...totals,
    CurrencyCode: p.currency,
    CurrencyRate: p.currencyRate,
    AmountDue: totals.Total,
    AmountPaid: 0,
    AmountCredited: 0,
    Payments: [],
    CreditNotes: [],
    Prepayments: [],
    Overpayments: [],
    SentToContact: p.status === 'AUTHORISED',
    HasAttachments: false,
    IsDiscounted: totals.TotalDiscount !== 0,
    HasErrors: false,
    UpdatedDateUTC: msDate(p.atMs),
  };
}

export interface CreditNoteParams extends Omit<InvoiceParams, 'type'> {
  type: XeroCreditNote['Type'];
}

export function buildCreditNote(tenant: TenantProfile, p: CreditNoteParams): XeroCreditNote {
  const inv = buildInvoice(tenant, { ...p, type: 'ACCREC' });
  return {
    Type: p.type,
    CreditNoteID: p.id,
    CreditNoteNumber: p.number,
    Reference: p.reference,
    Contact: inv.Contact,
    Date: inv.Date,
    DateString: inv.DateString,
    DueDate: inv.DueDate,
    DueDateString: inv.DueDateString,
    Status: p.status,
    LineAmountTypes: p.types,
    LineItems: inv.LineItems,
    SubTotal: inv.SubTotal,
    TotalTax: inv.TotalTax,
    Total: inv.Total,
    CurrencyCode: p.currency,
    CurrencyRate: p.currencyRate,
    RemainingCredit: inv.Total,
    AppliedAmount: 0,
    Allocations: [],
    Payments: [],
    SentToContact: false,
    HasAttachments: false,
    HasErrors: false,
    UpdatedDateUTC: inv.UpdatedDateUTC,
  };
}

/** Replaces lines (and optionally the amount type) of an unpaid, uncredited document; recomputes totals. */
export function replaceInvoiceLines(
  tenant: TenantProfile,
  inv: XeroInvoice,
  specs: readonly LineSpec[],
  types: LineAmountTypes,
  atMs: number,
): void {
  if (!['DRAFT', 'SUBMITTED', 'AUTHORISED'].includes(inv.Status) || inv.AmountPaid !== 0 || inv.AmountCredited !== 0) {
    throw new DocumentRuleError(
      'This document cannot be edited as it has payments or credit notes allocated to it, or is not in a valid status for modification',
    );
  }
  const lines = computeLines(tenant, specs, types, inv.CurrencyCode);
  Object.assign(inv, computeTotals(lines, types, inv.CurrencyCode));
  inv.LineItems = lines;
  inv.LineAmountTypes = types;
  inv.AmountDue = inv.Total;
  inv.IsDiscounted = inv.TotalDiscount !== 0;
  inv.UpdatedDateUTC = msDate(atMs);
}

export function applyPayment(inv: XeroInvoice, amount: number, paymentId: string, atMs: number): void {
  if (inv.Status !== 'AUTHORISED')
    throw new DocumentRuleError(`Payments can only be made against Authorised documents (status is ${inv.Status})`);
  if (!(amount > 0) || new Money(amount).gt(inv.AmountDue)) {
    throw new DocumentRuleError(
      `Payment amount ${amount} must be positive and at most the amount due ${inv.AmountDue}`,
    );
  }
  const day = dayMs(utcDay(atMs));
  inv.Payments.push({
    PaymentID: paymentId,
    Date: msDate(day),
    Amount: amount,
    CurrencyRate: inv.CurrencyRate,
    HasAccount: false,
    HasValidationErrors: false,
  });
  inv.AmountPaid = addAmounts(inv.AmountPaid, amount);
  inv.AmountDue = subAmounts(inv.AmountDue, amount);
  settle(inv, day);
  inv.UpdatedDateUTC = msDate(atMs);
}

function settle(inv: XeroInvoice, dayMsValue: number): void {
  if (inv.AmountDue === 0) {
    inv.Status = 'PAID';
    inv.FullyPaidOnDate = msDate(dayMsValue);
  }
}

export function voidDocument(doc: XeroInvoice | XeroCreditNote, atMs: number): void {
  const paid =
    'AmountPaid' in doc
      ? doc.AmountPaid !== 0 || doc.AmountCredited !== 0
      : doc.Allocations.length > 0 || doc.Payments.length > 0;
  if (doc.Status !== 'AUTHORISED' || paid) {
    throw new DocumentRuleError(
      `Only Authorised documents without payments or allocations can be voided (status is ${doc.Status})`,
    );
  }
  doc.Status = 'VOIDED';
  if ('AmountDue' in doc) doc.AmountDue = 0;
  else doc.RemainingCredit = 0;
  doc.UpdatedDateUTC = msDate(atMs);
}

export function deleteDocument(doc: XeroInvoice | XeroCreditNote, atMs: number): void {
  if (doc.Status !== 'DRAFT' && doc.Status !== 'SUBMITTED') {
    throw new DocumentRuleError(`Only Draft or Submitted documents can be deleted (status is ${doc.Status})`);
  }
  doc.Status = 'DELETED';
  if ('AmountDue' in doc) doc.AmountDue = 0;
  else doc.RemainingCredit = 0;
  doc.UpdatedDateUTC = msDate(atMs);
}

export function allocateCredit(
  cn: XeroCreditNote,
  inv: XeroInvoice,
  amount: number,
  allocationId: string,
  atMs: number,
): void {
  if (cn.Status !== 'AUTHORISED')
    throw new DocumentRuleError(`Credit note ${cn.CreditNoteNumber} is ${cn.Status}, not Authorised`);
  if (inv.Status !== 'AUTHORISED')
    throw new DocumentRuleError(`Invoice ${inv.InvoiceNumber} is ${inv.Status}, not Authorised`);
  if (cn.Contact.ContactID !== inv.Contact.ContactID || cn.CurrencyCode !== inv.CurrencyCode) {
    throw new DocumentRuleError('The credit note and the invoice must have the same contact and currency');
  }
  const a = new Money(amount);
  if (!a.gt(0) || a.gt(cn.RemainingCredit) || a.gt(inv.AmountDue)) {
    throw new DocumentRuleError(
      `Allocation ${amount} must be positive and at most the remaining credit ${cn.RemainingCredit} and the amount due ${inv.AmountDue}`,
    );
  }
  const day = dayMs(utcDay(atMs));
  cn.Allocations.push({
    AllocationID: allocationId,
    Amount: amount,
    Date: msDate(day),
    Invoice: { InvoiceID: inv.InvoiceID, InvoiceNumber: inv.InvoiceNumber },
    IsDeleted: false,
  });
  cn.AppliedAmount = addAmounts(cn.AppliedAmount, amount);
  cn.RemainingCredit = subAmounts(cn.RemainingCredit, amount);
  if (cn.RemainingCredit === 0) {
    cn.Status = 'PAID';
    cn.FullyPaidOnDate = msDate(day);
  }
  cn.UpdatedDateUTC = msDate(atMs);
  const ref = inv.CreditNotes.find((r) => r.CreditNoteID === cn.CreditNoteID);
  if (ref) ref.AppliedAmount = addAmounts(ref.AppliedAmount, amount);
  else
    inv.CreditNotes.push({
      CreditNoteID: cn.CreditNoteID,
      CreditNoteNumber: cn.CreditNoteNumber,
      AppliedAmount: amount,
      Date: cn.Date,
      Total: cn.Total,
    });
  inv.AmountCredited = addAmounts(inv.AmountCredited, amount);
  inv.AmountDue = subAmounts(inv.AmountDue, amount);
  settle(inv, day);
  inv.UpdatedDateUTC = msDate(atMs);
}
