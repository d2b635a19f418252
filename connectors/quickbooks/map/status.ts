import { type Decimal, parseOptionalAmount } from '../../../src/mapping/index.js';

/**
 * QBO has no status field on Invoice (reference §2.4, §2.7, traps 10–11): the status is read off the money.
 * - voided: `TotalAmt` 0 and `PrivateNote` starting with "Void" (QBO zeroes a voided invoice and notes
 *   "Voided"). Kept as a status — sourceStatus 'voided' — never a delete.
 * - paid: Balance 0 on a non-zero total; partially_paid: 0 < Balance < TotalAmt; open otherwise.
 * Credit memos cannot be voided in QBO [Q15]; their status says how much credit is left:
 * applied (RemainingCredit 0), partially_applied, open.
 */
export type InvoiceSourceStatus = 'voided' | 'paid' | 'partially_paid' | 'open';
export type CreditMemoSourceStatus = 'applied' | 'partially_applied' | 'open';

export function isVoided(total: Decimal, privateNote: string | undefined): boolean {
  return total.isZero() && (privateNote ?? '').trim().toLowerCase().startsWith('void');
}

export function invoiceStatus(total: Decimal, balance: Decimal, privateNote: string | undefined): InvoiceSourceStatus {
  if (isVoided(total, privateNote)) return 'voided';
  if (balance.isZero() && !total.isZero()) return 'paid';
  if (balance.gt(0) && balance.lt(total)) return 'partially_paid';
  return 'open';
}

export function creditMemoStatus(total: Decimal, remaining: Decimal | undefined): CreditMemoSourceStatus {
  if (remaining === undefined) return 'open';
  if (remaining.isZero() && !total.isZero()) return 'applied';
  if (remaining.gt(0) && remaining.lt(total)) return 'partially_applied';
  return 'open';
}

/** The status of a raw invoice for SourceRecord.status, tolerant of odd data (undefined when unreadable). */
export function rawInvoiceStatus(raw: { TotalAmt?: unknown; Balance?: unknown; PrivateNote?: unknown }): InvoiceSourceStatus | undefined {
  const total = parseOptionalAmount(raw.TotalAmt);
  const balance = parseOptionalAmount(raw.Balance);
  if (!total.ok || !balance.ok || total.value === undefined) return undefined;
  return invoiceStatus(total.value, balance.value ?? total.value, typeof raw.PrivateNote === 'string' ? raw.PrivateNote : undefined);
}

/** The status of a raw credit memo for SourceRecord.status. */
export function rawCreditMemoStatus(raw: { TotalAmt?: unknown; RemainingCredit?: unknown }): CreditMemoSourceStatus | undefined {
  const total = parseOptionalAmount(raw.TotalAmt);
  const remaining = parseOptionalAmount(raw.RemainingCredit);
  if (!total.ok || !remaining.ok || total.value === undefined) return undefined;
  return creditMemoStatus(total.value, remaining.value);
}
