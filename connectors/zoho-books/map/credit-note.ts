import type { CreditNoteInputDraft } from '../../../src/billing/schemas/index.js';
import {
  creditNoteIdFor,
  type Decimal,
  finalizeCreditNote,
  formatMoney,
  invoiceIdFor,
  mapFail,
  mapOk,
  minorUnit,
  parseAmountOrZero,
  parseCalendarDate,
  parseOptionalAmount,
  sumMoney,
  type MapResult,
  wireAmount,
  sourceMeta,
} from '../../../src/mapping/index.js';
import type { BillingBody, MapContext, SourceRecord } from '../../../src/connector/types.js';
import { mapping, parseRecord, type Steps } from '../../../src/mapping/steps.js';
import { ZohoCreditNote } from '../schemas.js';
import { readLookups, type ZohoLookups } from '../streams/lookups.js';
import { currencyOf, exchangeRateOf } from './fx.js';
import { einvoiceOf } from './einvoice.js';
import { labelsOf } from './labels.js';
import { customerOfDocument } from './party.js';
import { supplyOf } from './tax.js';
import { amountsOf } from './totals.js';

/**
 * Zoho `GET /creditnotes/{id}` (https://github.com/fordez/zoho-books-mcp-server-openapi/blob/main/mcp_server/openapi-all/credit-notes.yml)
 * → billing credit note. Amounts as for invoices (totals.ts).
 * - appliedToInvoices: the detail's `invoices[]` (where the credit was applied), each by the billing
 *   invoiceId of that Zoho invoice on this connection plus its number, with the amount applied.
 * - creditNoteRemainingAmount: Zoho's `balance` (credit not yet used).
 * - Σ applied may not exceed the total, and balance may not exceed total − Σ applied (the rest can be
 *   refunds, which the detail does not itemise). Skipped for void and draft notes.
 * - The credit-note input has no adjustments field: a non-zero shipping charge, adjustment or round-off
 *   is carried in metaData (the total already includes it).
 */
export function toCreditNote(record: SourceRecord, ctx: MapContext<ZohoLookups>): MapResult<BillingBody> {
  return mapping((s) => {
    const cn = parseRecord(s, ZohoCreditNote, record.raw, 'creditnote', 'Zoho');
    const lookups = s.take(readLookups(ctx.lookups));
    const currency = currencyOf(s, cn.currency_code);
    const a = amountsOf(s, cn, lookups, currency);
    const status = cn.status?.trim().toLowerCase() || 'unknown';
    const { applications, balance } = creditUsedOf(s, cn, a.total, currency, status);
    const exchangeRate = exchangeRateOf(s, cn, a, ctx, lookups);
    const date = cn.date ? s.take(parseCalendarDate(cn.date, 'date')) : undefined;
    const appliedToInvoices = appliedToInvoicesOf(s, applications, ctx, currency);
    const einvoice = einvoiceOf(s, cn.einvoice_details);
    const extras = (['shipping', 'adjustment', 'roundoff'] as const).filter((k) => !a[k].isZero());
    const customerName = cn.customer_name?.trim() || undefined;
    const reason = cn.reason?.trim() || undefined;
    const reference = cn.reference_number?.trim() || undefined;
    const gstTreatment = cn.gst_treatment?.trim() || undefined;
    const { placeOfSupply } = supplyOf(s, cn, a.kinds, lookups);

    const labels = labelsOf(
      s,
      cn,
      ctx.fields,
      sourceMeta({
        system: 'zoho-books',
        status,
        version: record.version,
        referenceNumber: reference || undefined,
        gstTreatment: gstTreatment || undefined,
        discountAmount: a.discount?.amount,
        ...Object.fromEntries(extras.map((k) => [k, wireAmount(s, a[k], currency, k)])),
        // India e-invoice (einvoice.ts); the credit-note body has no IRN field, so the IRN is metaData too.
        einvoiceIrn: einvoice.irnNumber,
        ...einvoice.meta,
        reverseCharge: a.reverseCharge ? true : undefined,
        reverseChargeTaxTotal: a.reverseCharge
          ? wireAmount(s, a.reverseCharge.total, currency, 'reverse_charge_tax_total')
          : undefined,
      }),
    );

    const draft: CreditNoteInputDraft = {
      creditNoteId: creditNoteIdFor(ctx.connectionId, cn.creditnote_id),
      creditNoteNumber: cn.creditnote_number,
      ...(date ? { creditNoteDate: { date } } : {}),
      creditNoteSubtotal: wireAmount(s, a.subtotal, currency, 'sub_total'),
      creditNoteTax: a.tax,
      creditNoteTotal: wireAmount(s, a.total, currency, 'total'),
      ...(balance ? { creditNoteRemainingAmount: wireAmount(s, balance, currency, 'balance') } : {}),
      creditNoteCurrency: currency,
      ...(exchangeRate !== undefined ? { exchangeRate } : {}),
      lineItems: a.lineItems,
      ...(customerName ? { customerName } : {}),
      ...(cn.customer_id
        ? { customerDetails: customerOfDocument(s, { ...cn, contact_persons_associated: undefined }, ctx) }
        : {}),
      ...(appliedToInvoices.length > 0 ? { appliedToInvoices } : {}),
      ...(placeOfSupply ? { placeOfSupply } : {}),
      ...(reason ? { reason } : {}),
      erpId: cn.creditnote_id,
      creditNoteOriginSource: ctx.originSource,
      ...(labels.tags ? { tags: labels.tags } : {}),
      metaData: labels.metaData,
    };
    const result = finalizeCreditNote(draft, [...new Set(s.warnings)]);
    return result.ok ? mapOk<BillingBody>({ kind: 'credit-note', creditNote: result.value }, result.warnings) : result;
  });
}

type Application = { app: NonNullable<ZohoCreditNote['invoices']>[number]; amount: Decimal };

/**
 * The credit applied to invoices (`invoices[]`) and the credit left (`balance`), checked against the
 * total: Σ applied ≤ total, and (except for void and draft notes) 0 ≤ balance ≤ total − Σ applied.
 */
function creditUsedOf(s: Steps, cn: ZohoCreditNote, total: Decimal, currency: string, status: string) {
  const applications: Application[] = (cn.invoices ?? []).map((app, i) => ({
    app,
    amount: s.take(parseAmountOrZero(app.amount, `invoices.${i}.amount`)),
  }));
  const applied = sumMoney(applications.map((x) => x.amount));
  const balance = s.take(parseOptionalAmount(cn.balance, 'balance'));
  const slack = minorUnit(currency);
  if (applied.minus(total).gt(slack)) {
    s.fail(
      mapFail(
        'AMOUNTS_INCONSISTENT',
        `credit applied to invoices ${formatMoney(applied, currency)} exceeds the credit note total ${formatMoney(total, currency)} ${currency}`,
        { field: 'invoices' },
      ),
    );
  }
  if (
    balance &&
    status !== 'void' &&
    status !== 'draft' &&
    (balance.minus(total.minus(applied)).gt(slack) || balance.isNegative())
  ) {
    s.fail(
      mapFail(
        'AMOUNTS_INCONSISTENT',
        `balance ${formatMoney(balance, currency)} is not within total ${formatMoney(total, currency)} − applied ${formatMoney(applied, currency)} ${currency}`,
        { field: 'balance' },
      ),
    );
  }
  return { applications, balance };
}

/** Each invoice the credit was applied to (by its billing id on this connection and its number), with the amount. */
function appliedToInvoicesOf(s: Steps, applications: Application[], ctx: MapContext, currency: string) {
  return applications
    .filter(({ app, amount }) => !amount.isZero() && (app.invoice_id || app.invoice_number))
    .map(({ app, amount }, i) => ({
      ...(app.invoice_id ? { invoiceId: invoiceIdFor(ctx.connectionId, app.invoice_id) } : {}),
      ...(app.invoice_number?.trim() ? { invoiceNumber: app.invoice_number.trim() } : {}),
      amount: wireAmount(s, amount, currency, `invoices.${i}.amount`),
    }));
}
