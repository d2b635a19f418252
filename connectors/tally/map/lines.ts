import type { LineItem } from '../../../src/billing/schemas/index.js';
import { type Decimal, nonBlank, quantityAndPrice, wireAmount } from '../../../src/mapping/index.js';
import type { Steps } from '../../../src/mapping/steps.js';
import type { TallyInventoryEntry } from '../schemas.js';
import type { LineRates } from './tax.js';
import { parseTallyAmount, parseTallyPercent, parseTallyQuantity, parseTallyRate } from './tally-values.js';

/**
 * A voucher's inventory entries (ALLINVENTORYENTRIES.LIST) as lines. Tally states each entry's AMOUNT
 * (signed: a credit, positive, on a sales invoice; a debit on a credit note), its RATE ("50,000.00/Nos")
 * and BILLEDQTY (" 2 Nos"; ACTUALQTY when not billed apart), its HSN/SAC (GSTHSNNAME) and, in
 * RATEDETAILS.LIST, the item's GST rates by duty head. The amount wins; a missing rate or quantity is
 * derived from it (src/mapping/quantity-and-price.ts). Tally's entries carry no id: a line's id is its
 * position in the voucher (1, 2, …).
 */
export interface ParsedLine {
  name: string;
  /** In billing's sign (positive on an invoice and on a credit note). */
  amount: Decimal;
  quantity: Decimal;
  unitPrice: Decimal;
  hsn?: string;
  rates: LineRates;
}

export function parseLine(s: Steps, raw: TallyInventoryEntry, i: number, sign: 1 | -1): ParsedLine {
  const at = `ALLINVENTORYENTRIES.LIST.${i}`;
  const amount = s.take(parseTallyAmount(raw.AMOUNT, `${at}.AMOUNT`)).times(sign);
  const quantity = s.take(parseTallyQuantity(raw.BILLEDQTY ?? raw.ACTUALQTY, `${at}.BILLEDQTY`))?.value;
  const unitPrice = s.take(parseTallyRate(raw.RATE, `${at}.RATE`))?.value;
  const derived = quantityAndPrice({
    amount,
    ...(quantity !== undefined ? { quantity } : {}),
    ...(unitPrice !== undefined ? { unitPrice } : {}),
  });
  const rates: LineRates = {};
  for (const [j, d] of (raw['RATEDETAILS.LIST'] ?? []).entries()) {
    const rate = s.take(parseTallyPercent(d.GSTRATE, `${at}.RATEDETAILS.LIST.${j}.GSTRATE`));
    const head = d.GSTRATEDUTYHEAD?.trim().toLowerCase();
    if (rate === undefined) continue;
    if (head === 'integrated tax') rates.gst = rate;
    else if (head === 'cess') rates.cess = rate;
  }
  return {
    name: nonBlank(raw.STOCKITEMNAME) ?? `Line ${i + 1}`,
    amount,
    quantity: derived.quantity,
    unitPrice: derived.unitPrice,
    ...(nonBlank(raw.GSTHSNNAME) ? { hsn: nonBlank(raw.GSTHSNNAME)! } : {}),
    rates,
  };
}

export function lineItemOf(
  s: Steps,
  l: ParsedLine,
  i: number,
  tax: { tax?: LineItem['tax']; amount: Decimal; rate: Decimal },
  currency: string,
): LineItem {
  return {
    lineItemDetails: {
      name: l.name,
      taxRate: tax.rate.toNumber(),
      pricePerItem: l.unitPrice.toNumber(),
      ...(l.hsn ? { hsnOrSacCode: l.hsn } : {}),
      lineItemId: String(i + 1),
    },
    subTotal: wireAmount(s, l.amount, currency, `lineItems.${i}.subTotal`),
    total: wireAmount(s, l.amount.plus(tax.amount), currency, `lineItems.${i}.total`),
    ...(tax.tax ? { tax: tax.tax } : {}),
    quantity: l.quantity.toNumber(),
  };
}
