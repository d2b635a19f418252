import { taxCode, taxRate } from './catalog.js';
import type { StoredDoc } from './model.js';
import { convertMinor, percentOf } from '../kit/minor-units.js';

/**
 * A document's figures, computed the way QBO does, in integer paise:
 *   line amount = Qty × UnitPrice; subtotal = Σ lines; discount = % of subtotal (or fixed);
 *   taxable = subtotal − discount when ApplyTaxAfterDiscount, else subtotal;
 *   each rate of the tax code: round_half_up(taxable × rate); total = subtotal − discount + Σ tax;
 *   invoice balance = total − payments − credits; credit memo RemainingCredit = total − applied;
 *   HomeTotalAmt = round(total × ExchangeRate).
 * A voided invoice is all zeros (QBO zeroes quantities, amounts, tax and balance).
 */
export interface DocAmounts {
  lines: number[];
  subtotal: number;
  discount: number;
  taxLines: Array<{ rateId: string; bp: number; amount: number; taxable: number }>;
  totalTax: number;
  total: number;
  balance: number;
  homeTotal?: number;
  homeBalance?: number;
}

export function computeAmounts(doc: StoredDoc): DocAmounts {
  if (doc.voided) {
    return {
      lines: doc.lines.map(() => 0),
      subtotal: 0,
      discount: 0,
      taxLines: [],
      totalTax: 0,
      total: 0,
      balance: 0,
      ...(doc.exchangeRate ? { homeTotal: 0, homeBalance: 0 } : {}),
    };
  }
  const lines = doc.lines.map((l) => l.qty * l.unitPricePaise);
  const subtotal = lines.reduce((a, b) => a + b, 0);
  const d = doc.discount;
  const discount =
    d === undefined ? 0 : 'percentBp' in d ? percentOf(subtotal, d.percentBp) : Math.min(d.amountPaise, subtotal);
  const taxable = doc.applyTaxAfterDiscount ? subtotal - discount : subtotal;
  const taxLines = taxCode(doc.taxCodeId).rateIds.map((rateId) => {
    const bp = taxRate(rateId).bp;
    return { rateId, bp, amount: percentOf(taxable, bp), taxable };
  });
  const totalTax = taxLines.reduce((a, t) => a + t.amount, 0);
  const total = subtotal - discount + totalTax;
  const balance = Math.max(0, total - doc.paidPaise - doc.creditPaise);
  const out: DocAmounts = { lines, subtotal, discount, taxLines, totalTax, total, balance };
  if (doc.exchangeRate) {
    out.homeTotal = convertMinor(total, doc.exchangeRate);
    out.homeBalance = convertMinor(balance, doc.exchangeRate);
  }
  return out;
}
