import type { InvoiceInputDraft } from '../../../src/billing/schemas/index.js';
import type { BillingBody, MapContext, SourceRecord } from '../../../src/connector/types.js';
import {
  checkPaidWithinTotal,
  type Decimal,
  finalizeInvoice,
  invoiceIdFor,
  mapFail,
  mapOk,
  type MapResult,
  parseOptionalAmount,
  sumMoney,
  ZERO,
  wireAmount,
  sourceMeta,
  nonBlank,
} from '../../../src/mapping/index.js';
import { mapping, parseRecord } from '../../../src/mapping/steps.js';
import { QboInvoice } from '../schemas.js';
import { linkedInvoiceIds } from './credit-note.js';
import { tagsOf } from './tags.js';
import { withPlacedMeta } from '../../../src/mapping/place-fields.js';
import { amountsOf } from './totals.js';

/**
 * QBO Invoice → billing invoice body (pure; never throws for bad data). Amounts, tax, rate and
 * customer: totals.ts.
 * - invoiceId = invoiceIdFor(connection, Id), erpId = Id, invoiceNumber = DocNumber (QBO may have
 *   auto-numbering off: then the Id, with a warning, since billing needs a number).
 * - invoicePaidAmount = TotalAmt − Balance − credits applied by credit memos we can attribute
 *   (creditsApplied); those credits go to invoiceAdjustedAmount, so billing's outstanding
 *   (total − paid − adjusted) equals QBO's Balance.
 * - tags: Class, Department and the custom fields (tags.ts); metaData.customerMemo = CustomerMemo (the
 *   message printed for the customer: billing's invoice has no field for it).
 * - metaData.sourceStatus: voided | paid | partially_paid | open (invoiceStatus); a void is a status.
 */
export function toInvoice(record: SourceRecord<unknown>, ctx: MapContext<unknown>): MapResult<BillingBody> {
  if (record.deleted)
    return mapFail('UNSUPPORTED', `invoice ${record.id} was deleted in QuickBooks; deletes are not mapped`);
  return mapping((s) => {
    const inv = parseRecord(s, QboInvoice, record.raw, 'Invoice', 'QuickBooks');
    const a = amountsOf(s, inv, ctx, 'Invoice');
    const { currency } = a;

    const stated = s.take(parseOptionalAmount(inv.Balance, 'Balance'));
    if (stated === undefined) s.warn('Balance missing: taken as unpaid');
    const balance = stated ?? a.total;
    const credits = creditsApplied(inv);
    credits.warnings.forEach((w) => s.warn(w));
    const settled = a.total.minus(balance);
    const paid = settled.minus(credits.amount);
    s.check(
      checkPaidWithinTotal({ paid: settled, total: a.total, currency }) ??
        checkPaidWithinTotal({ paid, total: a.total, currency }),
    );

    const number = inv.DocNumber?.trim();
    if (!number) s.warn(`invoice ${inv.Id} has no DocNumber; its Id is used as the number`);
    const fields = tagsOf(s, inv, ctx.fields);
    const draft: InvoiceInputDraft = {
      invoiceId: invoiceIdFor(ctx.connectionId, inv.Id),
      erpId: inv.Id,
      invoiceNumber: number || inv.Id,
      ...(a.txnDate ? { invoiceDate: { date: a.txnDate } } : {}),
      ...(a.dueDate ? { invoiceDueDate: { date: a.dueDate } } : {}),
      invoiceSubtotal: wireAmount(s, a.subtotal, currency, 'invoiceSubtotal'),
      ...(a.tax ? { invoiceTax: a.tax } : {}),
      ...(a.discount ? { discount: a.discount } : {}),
      invoiceTotal: wireAmount(s, a.total, currency, 'invoiceTotal'),
      // QBO's shipping line is outside the subtotal and after the discount: a post-tax adjustment, so that
      // subtotal − discount + tax + adjustments = TotalAmt in billing as in QBO.
      ...(a.shipping.isZero()
        ? {}
        : {
            createInvoiceAdjustments: [
              { name: 'Shipping', amount: wireAmount(s, a.shipping, currency, 'shipping'), isPostTax: true },
            ],
          }),
      invoicePaidAmount: wireAmount(s, paid, currency, 'invoicePaidAmount'),
      invoiceAdjustedAmount: wireAmount(s, credits.amount, currency, 'invoiceAdjustedAmount'),
      invoiceCurrency: currency,
      ...(a.exchangeRate === undefined ? {} : { exchangeRate: a.exchangeRate }),
      lineItems: a.lineItems,
      customerDetails: a.customerDetails,
      ...(a.customerDetails.name ? { customerName: a.customerDetails.name } : {}),
      ...(a.placeOfSupply ? { placeOfSupply: a.placeOfSupply } : {}),
      ...(fields.tags ? { tags: fields.tags } : {}),
      invoiceOriginSource: ctx.originSource,
      metaData: withPlacedMeta(
        (m) => s.warn(m),
        sourceMeta({
          system: 'quickbooks',
          status: invoiceStatus(a.total, balance, inv.PrivateNote),
          version: a.version,
          syncToken: inv.SyncToken,
          erpNumber: number || undefined,
          customerMemo: nonBlank(inv.CustomerMemo?.value),
        }),
        fields.metaData,
      ),
    };
    const result = finalizeInvoice(draft, s.warnings);
    return result.ok ? mapOk<BillingBody>({ kind: 'invoice', invoice: result.value }, result.warnings) : result;
  });
}

/**
 * How much of an invoice was settled by credit memos rather than cash (kept apart from payments, so
 * billing's paid amount is cash). QBO's invoice `LinkedTxn` names linked credit memos but carries no
 * amounts, so the stream fetches those credit memos (`_creditMemos`). A memo counts when it belongs to
 * this invoice alone (its InvoiceRef / LinkedTxn name only this invoice) and says its RemainingCredit:
 * then the credit applied here is TotalAmt − RemainingCredit. Anything else cannot be told apart and
 * stays in the paid amount, with a warning.
 */
export function creditsApplied(invoice: QboInvoice): { amount: Decimal; warnings: string[] } {
  const warnings: string[] = [];
  const amounts: Decimal[] = [];
  for (const link of invoice.LinkedTxn ?? []) {
    if (link.TxnType !== 'CreditMemo') continue;
    const memo = invoice._creditMemos?.find((m) => m.Id === link.TxnId);
    const applied = memo ? appliedToOnly(memo, invoice.Id) : undefined;
    if (applied === undefined) {
      warnings.push(`credit memo ${link.TxnId}: amount applied to this invoice unknown; counted in invoicePaidAmount`);
      continue;
    }
    amounts.push(applied);
  }
  return { amount: amounts.length ? sumMoney(amounts) : ZERO, warnings };
}

function appliedToOnly(memo: NonNullable<QboInvoice['_creditMemos']>[number], invoiceId: string): Decimal | undefined {
  const linked = linkedInvoiceIds(memo);
  if (linked.length !== 1 || linked[0] !== invoiceId) return undefined;
  const total = parseOptionalAmount(memo.TotalAmt);
  const remaining = parseOptionalAmount(memo.RemainingCredit);
  if (!total.ok || !remaining.ok || total.value === undefined || remaining.value === undefined) return undefined;
  return total.value.minus(remaining.value);
}

/**
 * QBO has no status field on Invoice, so the status is read off the money:
 * - voided: `TotalAmt` 0 and `PrivateNote` starting with "Void" (QBO zeroes a voided invoice and notes
 *   "Voided"; README.md, "Voids and deletes"). Kept as a status — sourceStatus 'voided' — never a delete.
 * - paid: Balance 0 on a non-zero total; partially_paid: 0 < Balance < TotalAmt; open otherwise.
 */
export type InvoiceSourceStatus = 'voided' | 'paid' | 'partially_paid' | 'open';

export function isVoided(total: Decimal, privateNote: string | undefined): boolean {
  return total.isZero() && (privateNote ?? '').trim().toLowerCase().startsWith('void');
}

export function invoiceStatus(total: Decimal, balance: Decimal, privateNote: string | undefined): InvoiceSourceStatus {
  if (isVoided(total, privateNote)) return 'voided';
  if (balance.isZero() && !total.isZero()) return 'paid';
  if (balance.gt(0) && balance.lt(total)) return 'partially_paid';
  return 'open';
}

/** The status of a raw invoice for SourceRecord.status, tolerant of odd data (undefined when unreadable). */
export function rawInvoiceStatus(raw: {
  TotalAmt?: unknown;
  Balance?: unknown;
  PrivateNote?: unknown;
}): InvoiceSourceStatus | undefined {
  const total = parseOptionalAmount(raw.TotalAmt);
  const balance = parseOptionalAmount(raw.Balance);
  if (!total.ok || !balance.ok || total.value === undefined) return undefined;
  return invoiceStatus(
    total.value,
    balance.value ?? total.value,
    typeof raw.PrivateNote === 'string' ? raw.PrivateNote : undefined,
  );
}
