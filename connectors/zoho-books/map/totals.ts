import type { Adjustment, Discount, Tax } from '../../../src/billing/schemas/index.js';
import {
  allocateMoney,
  buildDiscount,
  checkInvoiceTotal,
  checkLinesSum,
  mapFail,
  parseAmount,
  parseAmountOrZero,
  parseDiscountValue,
  parseOptionalAmount,
  percentOf,
  roundMoney,
  ZERO,
  type Decimal,
  type TaxKind,
  wireAmount,
  nonBlank,
} from '../../../src/mapping/index.js';
import type { Steps } from '../../../src/mapping/steps.js';
import type { ZohoDocument } from '../schemas.js';
import type { ZohoLookups } from '../streams/lookups.js';
import { lineItemOf, parseLine, within, type LineItemDraft } from './lines.js';
import { lineTdsOf } from './tds.js';
import { reconcileTaxes } from './reconcile-taxes.js';
import { cellsFor, lineTaxOf, taxOf, type TaxCell } from './tax.js';

/**
 * The amounts of a Zoho invoice or credit note (they share these fields), checked against Zoho's own
 * figures. How Zoho adds up (https://www.zoho.com/books/api/v3/invoices/):
 *
 *   item_total      = quantity × rate − item discount            (lines.ts)
 *   sub_total       = Σ item_total
 *   entity discount = `discount_amount` (or `discount` as an amount, or a percentage of sub_total)
 *   tax             = per line and component: (item_total − the line's share of a before-tax entity
 *                     discount) × component %, rounded per line; taxes[] = Σ per component (tax.ts)
 *   total           = sub_total − entity discount + tax_total + shipping_charge + adjustment + roundoff_value
 *
 * The entity-level discount, shipping, adjustment and round-off are document-level and are not spread
 * over lines.
 */
export interface DocumentAmounts {
  currency: string;
  subtotal: Decimal;
  total: Decimal;
  /** Entity-level discount (undefined when none). */
  discount?: Discount;
  shipping: Decimal;
  adjustment: Decimal;
  roundoff: Decimal;
  tax: Tax;
  lineItems: LineItemDraft[];
  /** The tax kinds charged (for the GST geography check), the buyer's under reverse charge included. */
  kinds: Set<TaxKind>;
  /** Reverse charge (India): the tax the buyer pays to the government, which the document does not collect. */
  reverseCharge?: { total: Decimal; tax: Tax };
}

/**
 * Entity-level discount. Zoho computes a percentage on sub_total whether the discount applies before or
 * after tax, so the billing percentage is relative to the subtotal in both cases; `isPostTax` is
 * `!is_discount_before_tax`. The money (`discount_amount`) is authoritative. Given only as a percentage,
 * the discount is what Zoho's `total` leaves (sub_total + tax_total + shipping + adjustment + round-off −
 * total): Zoho rounded the total, so the percentage rounded on its own can be a minor unit off. It must
 * still be that percentage within a minor unit; otherwise the percentage is used and the total check decides.
 */
function entityDiscountOf(
  s: Steps,
  doc: ZohoDocument,
  subtotal: Decimal,
  leftByTotal: Decimal,
  currency: string,
): { amount: Decimal; discount?: Discount } {
  if (doc.discount_type?.trim().toLowerCase() !== 'entity_level') return { amount: ZERO };
  const entered = s.take(parseDiscountValue(doc.discount, 'discount'));
  const percentField = s.take(parseOptionalAmount(doc.discount_percent, 'discount_percent'));
  const percentage = entered.percentage ?? (percentField && !percentField.isZero() ? percentField : undefined);
  const money = s.take(parseOptionalAmount(doc.discount_amount, 'discount_amount'));
  const fromPercent = percentage ? roundMoney(percentOf(subtotal, percentage), currency) : ZERO;
  const fromTotal = roundMoney(leftByTotal, currency);
  const fromRate = percentage && within(fromTotal, fromPercent, currency, 1) ? fromTotal : fromPercent;
  const amount = roundMoney(money && !money.isZero() ? money : (entered.amount ?? fromRate), currency);
  const discount = s.take(
    buildDiscount({
      amount,
      percentage,
      base: subtotal,
      isPostTax: doc.is_discount_before_tax === false,
      currency,
      field: 'discount',
    }),
  );
  return discount ? { amount, discount } : { amount: ZERO };
}

export function amountsOf(s: Steps, doc: ZohoDocument, lookups: ZohoLookups, currency: string): DocumentAmounts {
  if (doc.is_inclusive_tax === true) {
    const message =
      'tax-inclusive documents (is_inclusive_tax) are not mapped yet: their rates and item totals include tax';
    s.fail(mapFail('UNSUPPORTED', message, { field: 'is_inclusive_tax' }));
  }
  const lines = doc.line_items.map((line, i) => parseLine(s, line, i, currency));
  const subtotal = s.take(parseAmount(doc.sub_total, 'sub_total'));
  const taxTotal = s.take(parseAmountOrZero(doc.tax_total, 'tax_total'));
  const total = s.take(parseAmount(doc.total, 'total'));
  const shipping = s.take(parseAmountOrZero(doc.shipping_charge, 'shipping_charge'));
  const adjustment = s.take(parseAmountOrZero(doc.adjustment, 'adjustment'));
  const roundoff = s.take(parseAmountOrZero(doc.roundoff_value, 'roundoff_value'));
  s.check(checkLinesSum({ lineSubtotals: lines.map((l) => l.itemTotal), subtotal, currency }));

  const leftByTotal = subtotal.plus(taxTotal).plus(shipping).plus(adjustment).plus(roundoff).minus(total);
  const { amount: discountAmount, discount } = entityDiscountOf(s, doc, subtotal, leftByTotal, currency);
  s.check(
    checkInvoiceTotal({
      subtotal,
      discount: discountAmount,
      tax: taxTotal,
      adjustments: [shipping, adjustment],
      rounding: roundoff,
      total,
      currency,
    }),
  );

  // Each line's share of a before-tax entity discount lowers its taxable amount.
  let shares = lines.map(() => ZERO);
  if (!discountAmount.isZero() && doc.is_discount_before_tax !== false) {
    if (lines.some((l) => l.itemTotal.isNegative())) {
      s.fail(
        mapFail('UNSUPPORTED', 'a before-tax entity discount over negative lines cannot be apportioned', {
          field: 'discount',
        }),
      );
    }
    const weights = lines.map((l) => l.itemTotal);
    shares = allocateMoney(discountAmount, weights, currency);
  }
  const cells: TaxCell[] = lines.flatMap((l, i) =>
    l.taxId ? cellsFor(s, l.taxId, l.itemTotal.minus(shares[i]!), i, lookups, currency, `line_items.${i}.tax_id`) : [],
  );
  const shippingTaxId = nonBlank(doc.shipping_charge_tax_id);
  if (shippingTaxId && !shipping.isZero())
    cells.push(...cellsFor(s, shippingTaxId, shipping, -1, lookups, currency, 'shipping_charge_tax_id'));
  const kinds = new Set(cells.map((c) => c.kind));
  const reverseCharge = reverseChargeOf(s, doc, cells, taxTotal, lookups, currency);
  const charged = reverseCharge ? [] : cells;
  reconcileTaxes(s, charged, doc, taxTotal, lookups, currency);

  const lineItems = doc.line_items.flatMap(
    (raw, i) =>
      lineItemOf(s, raw, lines[i]!, i, lineTaxOf(s, charged, i, currency), currency, lineTdsOf(s, raw, i, currency)) ??
      [],
  );
  const tax = taxOf(s, charged, currency, 'tax');
  return {
    currency,
    subtotal,
    total,
    ...(discount ? { discount } : {}),
    shipping,
    adjustment,
    roundoff,
    tax,
    lineItems,
    kinds,
    ...(reverseCharge ? { reverseCharge } : {}),
  };
}

/**
 * Reverse charge (India, `is_reverse_charge_applied`; https://www.zoho.com/books/api/v3/invoices/): the
 * supplier charges no GST — `tax_total` is 0 and `total` leaves it out — and the buyer pays
 * `reverse_charge_tax_total` to the government itself. The lines' tax_ids still say which GST applies, so
 * the cells are reconciled to `reverse_charge_tax_total` (as a whole) and become the buyer's Tax, while the
 * document's own tax stays Zoho's (zero). A reverse-charge invoice on which Zoho also collected tax is
 * mapped as charged, with a warning: billing shows what the buyer owes the supplier.
 */
function reverseChargeOf(
  s: Steps,
  doc: ZohoDocument,
  cells: TaxCell[],
  taxTotal: Decimal,
  lookups: ZohoLookups,
  currency: string,
): { total: Decimal; tax: Tax } | undefined {
  if (!('is_reverse_charge_applied' in doc) || doc.is_reverse_charge_applied !== true) return undefined;
  const total = s.take(parseAmountOrZero(doc.reverse_charge_tax_total, 'reverse_charge_tax_total'));
  if (!taxTotal.isZero()) {
    s.warn('is_reverse_charge_applied with a non-zero tax_total: the tax Zoho collected is mapped as charged');
    return undefined;
  }
  const buyers = cells.map((c) => ({ ...c }));
  reconcileTaxes(s, buyers, { ...doc, taxes: [] }, total, lookups, currency);
  return { total, tax: taxOf(s, buyers, currency, 'reverse_charge_tax_total', true) };
}

type AdjustmentDraft = Omit<Adjustment, 'isPostTax'> & { isPostTax: boolean };

/**
 * Shipping, the manual adjustment and Zoho's round-off as billing adjustments (post-tax), so that
 * invoiceSubtotal − discount + tax + Σ adjustments = invoiceTotal exactly. Round-off is sent as an
 * adjustment named "Round off" rather than as invoiceRoundingConfig: a rounding *rule* would let billing
 * recompute its own rounding, while Zoho already decided the amount.
 */
export function adjustmentsOf(s: Steps, a: DocumentAmounts, description: string | null | undefined): AdjustmentDraft[] {
  const out: AdjustmentDraft[] = [];
  const add = (amount: Decimal, name: string, field: string) => {
    if (!amount.isZero()) out.push({ name, amount: wireAmount(s, amount, a.currency, field), isPostTax: true });
  };
  add(a.shipping, 'Shipping charge', 'shipping_charge');
  add(a.adjustment, nonBlank(description) ?? 'Adjustment', 'adjustment');
  add(a.roundoff, 'Round off', 'roundoff_value');
  return out;
}
