import { type Decimal, parseOptionalAmount, sumMoney, ZERO } from '../../../src/mapping/index.js';
import type { QboCreditMemo, QboInvoice } from '../schemas.js';

/**
 * How much of an invoice was settled by credit memos rather than cash (trap 10: model "paid by credit"
 * apart from payments). QBO's invoice `LinkedTxn` names linked credit memos but carries no amounts, so the
 * stream fetches those credit memos (`_creditMemos`). A memo counts when it belongs to this invoice alone
 * (its InvoiceRef / LinkedTxn name only this invoice) and says its RemainingCredit: then the credit applied
 * here is TotalAmt − RemainingCredit. Anything else cannot be told apart and stays in the paid amount,
 * with a warning.
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

/** The invoices a credit memo names: InvoiceRef (IN region) and LinkedTxn entries of type Invoice. */
export function linkedInvoiceIds(memo: QboCreditMemo): string[] {
  const ids = [memo.InvoiceRef?.value, ...(memo.LinkedTxn ?? []).filter((l) => l.TxnType === 'Invoice').map((l) => l.TxnId)];
  return [...new Set(ids.filter((id): id is string => typeof id === 'string' && id !== ''))];
}

function appliedToOnly(memo: QboCreditMemo, invoiceId: string): Decimal | undefined {
  const linked = linkedInvoiceIds(memo);
  if (linked.length !== 1 || linked[0] !== invoiceId) return undefined;
  const total = parseOptionalAmount(memo.TotalAmt);
  const remaining = parseOptionalAmount(memo.RemainingCredit);
  if (!total.ok || !remaining.ok || total.value === undefined || remaining.value === undefined) return undefined;
  return total.value.minus(remaining.value);
}
