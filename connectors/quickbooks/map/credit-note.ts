import type { BillingBody, MapContext, SourceRecord } from '../../../src/connector/types.js';
import type { CreditNoteApplication, CreditNoteInputDraft, LineItem } from '../../../src/billing/schemas/index.js';
import {
  checkPaidWithinTotal,
  creditNoteIdFor,
  finalizeCreditNote,
  invoiceIdFor,
  mapFail,
  mapOk,
  type MapResult,
  parseOptionalAmount,
} from '../../../src/mapping/index.js';
import { QboCreditMemo } from '../schemas.js';
import { linkedInvoiceIds } from './credits-applied.js';
import { parseRecord } from './parse-record.js';
import { mapSalesDocument } from './sales-document.js';
import { creditMemoStatus } from './status.js';

/**
 * QBO CreditMemo → billing credit note body (pure).
 * - appliedToInvoices: the invoice the memo names (InvoiceRef, required in the IN region, or a LinkedTxn
 *   of type Invoice) with amount = TotalAmt − RemainingCredit. When it names several invoices QBO does not
 *   say the split, so no amounts are invented: the ids go to metaData.linkedInvoiceErpIds, with a warning.
 * - The credit-note body has no discount field: a DiscountLineDetail becomes a negative "Discount" line and
 *   creditNoteSubtotal is net of it (trap 14), so subtotal + tax = total still holds.
 * - creditNoteRemainingAmount = RemainingCredit. QBO cannot void credit memos [Q15]; sourceStatus says
 *   applied / partially_applied / open.
 */
export function mapCreditNote(record: SourceRecord<unknown>, ctx: MapContext): MapResult<BillingBody> {
  if (record.deleted) return mapFail('UNSUPPORTED', `credit memo ${record.id} was deleted in QuickBooks; deletes are not mapped`);
  const parsed = parseRecord(QboCreditMemo, record.raw, 'CreditMemo');
  if (!parsed.ok) return parsed;
  const memo = parsed.value;
  const doc = mapSalesDocument(memo, ctx, 'CreditMemo');
  if (!doc.ok) return doc;
  const p = doc.value;
  const { wire } = p;
  const warnings = [...p.warnings];

  const remaining = parseOptionalAmount(memo.RemainingCredit, 'RemainingCredit');
  if (!remaining.ok) return remaining;
  const applied = remaining.value === undefined ? undefined : p.total.minus(remaining.value);
  if (applied !== undefined) {
    const bad = checkPaidWithinTotal({ paid: applied, total: p.total, currency: p.currency });
    if (bad) return { ...bad, message: `credit applied: ${bad.message}`, field: 'RemainingCredit' };
  }

  const linked = linkedInvoiceIds(memo);
  let appliedToInvoices: CreditNoteApplication[] | undefined;
  if (linked.length === 1 && applied !== undefined) {
    appliedToInvoices = [{ invoiceId: invoiceIdFor(ctx.connectionId, linked[0]!), amount: wire.num(applied, 'appliedToInvoices.0.amount') }];
  } else if (linked.length > 0) {
    warnings.push(`credit memo ${memo.Id} names invoices ${linked.join(', ')} without a per-invoice amount; sent in metaData only`);
  }

  const lineItems: LineItem[] = [...p.lineItems];
  if (!p.discountTotal.isZero()) {
    const minus = wire.num(p.discountTotal.negated(), 'lineItems.discount');
    lineItems.push({ lineItemDetails: { name: 'Discount', taxRate: 0, pricePerItem: minus }, quantity: 1, subTotal: minus, total: minus });
  }

  const number = memo.DocNumber?.trim();
  if (!number) warnings.push(`credit memo ${memo.Id} has no DocNumber; its Id is used as the number`);
  const reason = memo.CustomerMemo?.value?.trim();
  const draft: CreditNoteInputDraft = {
    creditNoteId: creditNoteIdFor(ctx.connectionId, memo.Id),
    erpId: memo.Id,
    creditNoteNumber: number || memo.Id,
    ...(p.txnDate ? { creditNoteDate: { date: p.txnDate } } : {}),
    creditNoteSubtotal: wire.num(p.subtotal.minus(p.discountTotal), 'creditNoteSubtotal'),
    ...(p.tax ? { creditNoteTax: p.tax } : {}),
    creditNoteTotal: wire.num(p.total, 'creditNoteTotal'),
    ...(remaining.value === undefined ? {} : { creditNoteRemainingAmount: wire.num(remaining.value, 'creditNoteRemainingAmount') }),
    creditNoteCurrency: p.currency,
    ...(p.exchangeRate === undefined ? {} : { exchangeRate: p.exchangeRate }),
    lineItems,
    customerDetails: p.customerDetails,
    ...(p.customerDetails.name ? { customerName: p.customerDetails.name } : {}),
    ...(appliedToInvoices ? { appliedToInvoices } : {}),
    ...(p.placeOfSupply ? { placeOfSupply: p.placeOfSupply } : {}),
    ...(reason ? { reason } : {}),
    creditNoteOriginSource: ctx.originSource,
    metaData: {
      sourceSystem: 'quickbooks',
      sourceStatus: creditMemoStatus(p.total, remaining.value),
      sourceVersion: p.version,
      ...(memo.SyncToken === undefined ? {} : { syncToken: memo.SyncToken }),
      ...(number ? { erpNumber: number } : {}),
      ...(linked.length > 0 && !appliedToInvoices ? { linkedInvoiceErpIds: linked.join(',') } : {}),
    },
  };
  if (wire.failure) return wire.failure;
  const result = finalizeCreditNote(draft, warnings);
  return result.ok ? mapOk({ kind: 'credit-note', creditNote: result.value }, result.warnings) : result;
}
