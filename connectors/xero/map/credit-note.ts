import type { CreditNoteInputDraft } from '../../../src/billing/schemas/credit-note.js';
import type { BillingBody, MapContext, SourceRecord } from '../../../src/connector/types.js';
import {
  checkBalance,
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
  type Decimal,
  type MapResult,
  wireAmount,
  sourceMeta,
} from '../../../src/mapping/index.js';
import { mapping, parseRecord, type Steps } from '../../../src/mapping/steps.js';
import { XeroCreditNote } from '../schemas.js';
import { readLookups } from '../streams/lookups.js';
import { currencyOf, exchangeRateOf } from './fx.js';
import { amountsOf } from './totals.js';
import { customerDetailsOf } from './party.js';
import { trackingFieldsOf } from './tags.js';

/**
 * A Xero ACCRECCREDIT credit note (https://developer.xero.com/documentation/api/accounting/creditnotes)
 * → the billing credit note body.
 * - Money, tax, exchange rate, customer and metaData as for invoices (invoice.ts).
 * - appliedToInvoices: each live Allocation (IsDeleted not true, Amount > 0) → {invoiceId =
 *   invoiceIdFor(connection, Allocation.Invoice.InvoiceID), invoiceNumber, amount}, so billing links the
 *   credit to the same invoice ids our invoice stream upserts.
 * - creditNoteRemainingAmount = RemainingCredit. Unless VOIDED/DELETED/DRAFT/SUBMITTED: Total − Σ
 *   allocations − Σ cash refunds (Payments) = RemainingCredit, else AMOUNTS_INCONSISTENT.
 * - reason = Reference; tags = the lines' tracking categories (tags.ts).
 */
type Application = { invoiceId: string; invoiceNumber?: string; amount: number };

/** Live allocations → billing applications, and the amounts they allocate. */
function applicationsOf(
  s: Steps,
  raw: XeroCreditNote,
  currency: string,
  connectionId: string,
): { applications: Application[]; allocated: Decimal[] } {
  const applications: Application[] = [];
  const allocated: Decimal[] = [];
  for (const [i, a] of (raw.Allocations ?? []).entries()) {
    if (a.IsDeleted === true) continue;
    if (!a.Invoice?.InvoiceID)
      s.fail(
        mapFail('MISSING_FIELD', `Allocations.${i}.Invoice.InvoiceID is missing`, {
          field: `Allocations.${i}.Invoice`,
        }),
      );
    const amount = s.take(parseAmount(a.Amount, `Allocations.${i}.Amount`));
    if (amount.isZero()) continue;
    const wire = wireAmount(s, amount, currency, `Allocations.${i}.Amount`);
    allocated.push(amount);
    applications.push({
      invoiceId: invoiceIdFor(connectionId, a.Invoice.InvoiceID),
      ...(a.Invoice.InvoiceNumber?.trim() ? { invoiceNumber: a.Invoice.InvoiceNumber.trim() } : {}),
      amount: wire,
    });
  }
  return { applications, allocated };
}

export function toCreditNote(record: SourceRecord, ctx: MapContext): MapResult<BillingBody> {
  return mapping((s) => {
    const raw = parseRecord(s, XeroCreditNote, record.raw, 'creditNote', 'Xero');
    if (raw.Type !== 'ACCRECCREDIT')
      s.fail(mapFail('UNSUPPORTED', `Xero ${raw.Type} credit note is not a sales credit note`, { field: 'Type' }));
    const number =
      raw.CreditNoteNumber?.trim() ||
      s.fail(mapFail('MISSING_FIELD', 'CreditNoteNumber is missing', { field: 'CreditNoteNumber' }));
    const currency = currencyOf(s, raw.CurrencyCode);
    const contact = raw.Contact ?? s.fail(mapFail('MISSING_FIELD', 'Contact is missing', { field: 'Contact' }));
    const date = s.take(parseCalendarDate(raw.Date ?? raw.DateString, 'Date'));

    const lookups = readLookups(ctx.lookups);
    const a = amountsOf(s, raw, currency, lookups, 'creditNoteTax');
    const { applications, allocated } = applicationsOf(s, raw, currency, ctx.connectionId);
    const refunds = (raw.Payments ?? []).flatMap((p, i) =>
      p.Status === 'DELETED' ? [] : [s.take(parseAmountOrZero(p.Amount, `Payments.${i}.Amount`))],
    );
    const remaining = s.take(parseOptionalAmount(raw.RemainingCredit, 'RemainingCredit'));
    if (!['VOIDED', 'DELETED', 'DRAFT', 'SUBMITTED'].includes(raw.Status) && remaining !== undefined) {
      const bad = checkBalance({
        total: a.total,
        paid: sumMoney(refunds),
        credited: sumMoney(allocated),
        balance: remaining,
        currency,
      });
      if (bad) s.fail({ ...bad, field: 'RemainingCredit' });
    }
    const remainingWire = remaining !== undefined ? wireAmount(s, remaining, currency, 'RemainingCredit') : undefined;
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
        lineAmountTypes: raw.LineAmountTypes ?? null,
      }),
    );

    const draft: CreditNoteInputDraft = {
      creditNoteId: creditNoteIdFor(ctx.connectionId, raw.CreditNoteID),
      creditNoteNumber: number,
      creditNoteDate: { date },
      creditNoteSubtotal: a.wire.subtotal,
      creditNoteTax: a.tax,
      creditNoteTotal: a.wire.total,
      ...(remainingWire !== undefined ? { creditNoteRemainingAmount: remainingWire } : {}),
      creditNoteCurrency: currency,
      ...(exchangeRate !== undefined ? { exchangeRate } : {}),
      lineItems: a.lineItems,
      customerDetails: customerDetailsOf(contact, ctx.connectionId, lookups),
      ...(contact.Name?.trim() ? { customerName: contact.Name.trim() } : {}),
      ...(applications.length ? { appliedToInvoices: applications } : {}),
      ...(raw.Reference?.trim() ? { reason: raw.Reference.trim() } : {}),
      erpId: raw.CreditNoteID,
      creditNoteOriginSource: ctx.originSource,
      ...(fields.tags ? { tags: fields.tags } : {}),
      metaData: fields.metaData,
    };
    const result = finalizeCreditNote(draft, s.warnings);
    return result.ok ? mapOk<BillingBody>({ kind: 'credit-note', creditNote: result.value }, result.warnings) : result;
  });
}
