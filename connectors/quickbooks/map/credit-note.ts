import type { CreditNoteApplication, CreditNoteInputDraft, LineItem } from '../../../src/billing/schemas/index.js';
import type { BillingBody, MapContext, SourceRecord } from '../../../src/connector/types.js';
import {
  checkPaidWithinTotal,
  creditNoteIdFor,
  type Decimal,
  finalizeCreditNote,
  invoiceIdFor,
  mapFail,
  mapOk,
  type MapResult,
  parseOptionalAmount,
  wireAmount,
  sourceMeta,
} from '../../../src/mapping/index.js';
import { mapping, parseRecord, type Steps } from '../../../src/mapping/steps.js';
import { QboCreditMemo } from '../schemas.js';
import { tagsOf } from './tags.js';
import { withPlacedMeta } from '../../../src/mapping/place-fields.js';
import { amountsOf, type DocumentAmounts } from './totals.js';

/**
 * QBO CreditMemo → billing credit note body (pure). Amounts, tax, rate and customer: totals.ts.
 * - appliedToInvoices: the invoice the memo names (InvoiceRef, required in the IN region, or a LinkedTxn
 *   of type Invoice) with amount = TotalAmt − RemainingCredit. When it names several invoices QBO does not
 *   say the split, so no amounts are invented: the ids go to metaData.linkedInvoiceErpIds, with a warning.
 * - The credit-note body has no discount field: a DiscountLineDetail becomes a negative "Discount" line and
 *   creditNoteSubtotal is net of it, so subtotal + tax = total still holds; QBO's shipping line
 *   (SHIPPING_ITEM_ID, lines.ts) becomes a "Shipping" line and is inside creditNoteSubtotal, for the same reason.
 * - reason = CustomerMemo; tags: Class, Department and the custom fields (tags.ts).
 * - creditNoteRemainingAmount = RemainingCredit; sourceStatus says applied / partially_applied / open
 *   (creditMemoStatus).
 */
export function toCreditNote(record: SourceRecord<unknown>, ctx: MapContext<unknown>): MapResult<BillingBody> {
  if (record.deleted)
    return mapFail('UNSUPPORTED', `credit memo ${record.id} was deleted in QuickBooks; deletes are not mapped`);
  return mapping((s) => {
    const memo = parseRecord(s, QboCreditMemo, record.raw, 'CreditMemo', 'QuickBooks');
    const a = amountsOf(s, memo, ctx, 'CreditMemo');
    const { remaining, linked, appliedToInvoices } = applicationOf(s, memo, a, ctx);
    const lineItems = creditLinesOf(s, a);
    const number = memo.DocNumber?.trim();
    if (!number) s.warn(`credit memo ${memo.Id} has no DocNumber; its Id is used as the number`);
    const reason = memo.CustomerMemo?.value?.trim();
    const fields = tagsOf(s, memo, ctx.fields);
    const { currency } = a;
    const draft: CreditNoteInputDraft = {
      creditNoteId: creditNoteIdFor(ctx.connectionId, memo.Id),
      erpId: memo.Id,
      creditNoteNumber: number || memo.Id,
      ...(a.txnDate ? { creditNoteDate: { date: a.txnDate } } : {}),
      creditNoteSubtotal: wireAmount(
        s,
        a.subtotal.minus(a.discountTotal).plus(a.shipping),
        currency,
        'creditNoteSubtotal',
      ),
      ...(a.tax ? { creditNoteTax: a.tax } : {}),
      creditNoteTotal: wireAmount(s, a.total, currency, 'creditNoteTotal'),
      ...(remaining === undefined
        ? {}
        : { creditNoteRemainingAmount: wireAmount(s, remaining, currency, 'creditNoteRemainingAmount') }),
      creditNoteCurrency: currency,
      ...(a.exchangeRate === undefined ? {} : { exchangeRate: a.exchangeRate }),
      lineItems,
      customerDetails: a.customerDetails,
      ...(a.customerDetails.name ? { customerName: a.customerDetails.name } : {}),
      ...(appliedToInvoices ? { appliedToInvoices } : {}),
      ...(a.placeOfSupply ? { placeOfSupply: a.placeOfSupply } : {}),
      ...(reason ? { reason } : {}),
      creditNoteOriginSource: ctx.originSource,
      ...(fields.tags ? { tags: fields.tags } : {}),
      metaData: withPlacedMeta(
        (m) => s.warn(m),
        sourceMeta({
          system: 'quickbooks',
          status: creditMemoStatus(a.total, remaining),
          version: a.version,
          syncToken: memo.SyncToken,
          erpNumber: number || undefined,
          linkedInvoiceErpIds: linked.length > 0 && !appliedToInvoices ? linked.join(',') : undefined,
        }),
        fields.metaData,
      ),
    };
    const result = finalizeCreditNote(draft, s.warnings);
    return result.ok ? mapOk<BillingBody>({ kind: 'credit-note', creditNote: result.value }, result.warnings) : result;
  });
}

/**
 * How much of the memo was applied (TotalAmt − RemainingCredit, within the total), and to which invoice:
 * only when it names exactly one, since QBO does not say how a memo is split over several.
 */
function applicationOf(s: Steps, memo: QboCreditMemo, a: DocumentAmounts, ctx: MapContext<unknown>) {
  const { currency } = a;
  const remaining = s.take(parseOptionalAmount(memo.RemainingCredit, 'RemainingCredit'));
  const applied = remaining === undefined ? undefined : a.total.minus(remaining);
  const bad = applied === undefined ? undefined : checkPaidWithinTotal({ paid: applied, total: a.total, currency });
  if (bad) s.fail({ ...bad, message: `credit applied: ${bad.message}`, field: 'RemainingCredit' });

  const linked = linkedInvoiceIds(memo);
  let appliedToInvoices: CreditNoteApplication[] | undefined;
  if (linked.length === 1 && applied !== undefined) {
    appliedToInvoices = [
      {
        invoiceId: invoiceIdFor(ctx.connectionId, linked[0]!),
        amount: wireAmount(s, applied, currency, 'appliedToInvoices.0.amount'),
      },
    ];
  } else if (linked.length > 0) {
    s.warn(
      `credit memo ${memo.Id} names invoices ${linked.join(', ')} without a per-invoice amount; sent in metaData only`,
    );
  }
  return { remaining, linked, appliedToInvoices };
}

/**
 * The memo's lines, then its discount as a negative "Discount" line and its shipping as a "Shipping" line
 * (QBO's order: items, discount, then shipping): a credit note has neither a discount nor adjustments.
 */
function creditLinesOf(s: Steps, a: DocumentAmounts): LineItem[] {
  const lineItems: LineItem[] = [...a.lineItems];
  const extra = (name: string, amount: Decimal, field: string) => {
    const wire = wireAmount(s, amount, a.currency, field);
    lineItems.push({
      lineItemDetails: { name, taxRate: 0, pricePerItem: wire },
      quantity: 1,
      subTotal: wire,
      total: wire,
    });
  };
  if (!a.discountTotal.isZero()) extra('Discount', a.discountTotal.negated(), 'lineItems.discount');
  if (!a.shipping.isZero()) extra('Shipping', a.shipping, 'lineItems.shipping');
  return lineItems;
}

/** The invoices a credit memo names: InvoiceRef (IN region) and LinkedTxn entries of type Invoice. */
export function linkedInvoiceIds(memo: Pick<QboCreditMemo, 'InvoiceRef' | 'LinkedTxn'>): string[] {
  const ids = [
    memo.InvoiceRef?.value,
    ...(memo.LinkedTxn ?? []).filter((l) => l.TxnType === 'Invoice').map((l) => l.TxnId),
  ];
  return [...new Set(ids.filter((id): id is string => typeof id === 'string' && id !== ''))];
}

/**
 * Credit memos have no status field and cannot be voided in QBO (README.md, "Voids and deletes"); their
 * status says how much credit is left: applied (RemainingCredit 0), partially_applied, open.
 */
export type CreditMemoSourceStatus = 'applied' | 'partially_applied' | 'open';

export function creditMemoStatus(total: Decimal, remaining: Decimal | undefined): CreditMemoSourceStatus {
  if (remaining === undefined) return 'open';
  if (remaining.isZero() && !total.isZero()) return 'applied';
  if (remaining.gt(0) && remaining.lt(total)) return 'partially_applied';
  return 'open';
}

/** The status of a raw credit memo for SourceRecord.status. */
export function rawCreditMemoStatus(raw: {
  TotalAmt?: unknown;
  RemainingCredit?: unknown;
}): CreditMemoSourceStatus | undefined {
  const total = parseOptionalAmount(raw.TotalAmt);
  const remaining = parseOptionalAmount(raw.RemainingCredit);
  if (!total.ok || !remaining.ok || total.value === undefined) return undefined;
  return creditMemoStatus(total.value, remaining.value);
}
