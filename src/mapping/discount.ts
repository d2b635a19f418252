import type { Discount } from '../billing/schemas/tax.js';
import { formatMoney, moneyEquals, percentOf, roundMoney, tryWireNumber, Money, type Decimal } from './money.js';
import { mapFail, mapOk, type MapResult } from './quarantine-reason.js';

/**
 * Discounts as the billing `Discount` object `{amount, percentage, isPostTax}`.
 *
 * Where a discount goes depends on its scope:
 * - entity-level (Zoho `discount_type: entity_level`, a QuickBooks `DiscountLineDetail` line) →
 *   the invoice's `discount`, with the base being the subtotal (before tax) or subtotal + tax (after tax);
 * - item-level (Zoho `item_level`, QuickBooks/Xero line `DiscountRate`/`DiscountAmount`) → that line's
 *   `discount`, with the base being quantity × unit price. Vendors already subtract item discounts inside
 *   the line amounts (Zoho `item_total`, Xero `LineAmount`), so they must **not** also go on the invoice's
 *   `discount`: the billing side would take them off twice.
 *
 * `isPostTax`: Zoho `is_discount_before_tax: true` and QuickBooks `ApplyTaxAfterDiscount: true` both mean
 * the discount comes off before tax, i.e. `isPostTax: false`.
 *
 * The amount is authoritative (it is money, and it is what the vendor's totals were computed from);
 * the percentage is derived from it when the vendor gives only an amount.
 */
export interface DiscountSpec {
  /** Discount in the document's currency. */
  amount?: Decimal;
  /** 10 means 10 %. */
  percentage?: Decimal;
  /** What the percentage applies to. Needed when only a percentage is given. */
  base?: Decimal;
  isPostTax: boolean;
  currency: string;
  field?: string;
}

const PERCENT_DECIMALS = 4;

/** The billing Discount, or undefined when there is no discount (absent or zero). */
export function buildDiscount(spec: DiscountSpec): MapResult<Discount | undefined> {
  const field = spec.field ?? 'discount';
  const { currency, base } = spec;
  const warnings: string[] = [];
  for (const [name, v] of [
    ['amount', spec.amount],
    ['percentage', spec.percentage],
    ['base', spec.base],
  ] as const) {
    if (v?.isNegative() && !v.isZero())
      return mapFail('INVALID_FIELD', `${field}.${name} ${v.toFixed()} is negative`, { field });
  }
  if (spec.percentage?.gt(100)) {
    return mapFail('INVALID_FIELD', `${field}.percentage ${spec.percentage.toFixed()} is over 100`, { field });
  }
  const hasAmount = spec.amount !== undefined && !spec.amount.isZero();
  const hasPercentage = spec.percentage !== undefined && !spec.percentage.isZero();
  if (!hasAmount && !hasPercentage) return mapOk(undefined);

  let amount: Decimal;
  if (hasAmount) {
    amount = roundMoney(spec.amount!, currency);
  } else if (base !== undefined) {
    amount = roundMoney(percentOf(base, spec.percentage!), currency);
  } else {
    return mapFail('MISSING_FIELD', `${field}: a percentage discount needs the amount it applies to`, { field });
  }

  let percentage = new Money(0);
  if (hasPercentage) {
    percentage = new Money(spec.percentage!);
    if (hasAmount && base !== undefined && !moneyEquals(percentOf(base, percentage), amount, currency, 1)) {
      warnings.push(
        `${field}: ${percentage.toFixed()} % of ${formatMoney(base, currency)} is not the amount ${formatMoney(amount, currency)}; keeping the amount`,
      );
    }
  } else if (base !== undefined && !base.isZero()) {
    percentage = amount.times(100).div(base).toDecimalPlaces(PERCENT_DECIMALS);
  }

  if (base !== undefined && amount.gt(roundMoney(base, currency))) {
    return mapFail(
      'AMOUNTS_INCONSISTENT',
      `${field}: discount ${formatMoney(amount, currency)} exceeds its base ${formatMoney(base, currency)} ${currency}`,
      {
        field,
      },
    );
  }
  const wire = tryWireNumber(amount, currency, `${field}.amount`);
  if (!wire.ok) return wire;
  return mapOk({ amount: wire.value, percentage: percentage.toNumber(), isPostTax: spec.isPostTax }, warnings);
}

/** Invoice-level discount: base = subtotal before tax, or subtotal + tax when applied after tax. */
export function entityDiscount(input: {
  amount?: Decimal;
  percentage?: Decimal;
  subtotal: Decimal;
  tax?: Decimal;
  isPostTax: boolean;
  currency: string;
}): MapResult<Discount | undefined> {
  const base = input.isPostTax && input.tax ? input.subtotal.plus(input.tax) : input.subtotal;
  return buildDiscount({ ...input, base, field: 'discount' });
}

/** Line-level discount: base = quantity × unit price, the gross line before its discount. */
export function itemDiscount(input: {
  amount?: Decimal;
  percentage?: Decimal;
  quantity: Decimal;
  unitPrice: Decimal;
  /**
   * The vendor's own line amount after the discount (Xero LineAmount). When the vendor states no
   * discount amount, the discount is quantity × unit price − this: the vendor rounded the line, not the
   * discount, so rounding the percentage of the gross on its own can differ by a minor unit (Xero: 15 %
   * of 13.30 is 1.995, but its LineAmount 11.31 leaves 1.99).
   */
  lineAmount?: Decimal;
  isPostTax?: boolean;
  currency: string;
  field?: string;
}): MapResult<Discount | undefined> {
  const gross = new Money(input.quantity).times(input.unitPrice);
  const derived =
    input.amount === undefined && input.lineAmount !== undefined
      ? roundMoney(gross.minus(input.lineAmount), input.currency)
      : undefined;
  return buildDiscount({
    amount: input.amount ?? (derived?.isNegative() ? undefined : derived),
    percentage: input.percentage,
    base: gross,
    isPostTax: input.isPostTax ?? false,
    currency: input.currency,
    field: input.field ?? 'lineItem.discount',
  });
}

/**
 * Zoho's `discount` field is either an amount (number or "100.00") or a percentage ("12.5%").
 * null, undefined and "" mean no discount.
 */
export function parseDiscountValue(
  raw: unknown,
  field = 'discount',
): MapResult<{ amount?: Decimal; percentage?: Decimal }> {
  if (raw === null || raw === undefined || raw === '') return mapOk({});
  const text = typeof raw === 'string' ? raw.trim() : raw;
  const isPercent = typeof text === 'string' && text.endsWith('%');
  const numeric = isPercent ? (text as string).slice(0, -1).trim() : text;
  const valid =
    (typeof numeric === 'number' && Number.isFinite(numeric)) ||
    (typeof numeric === 'string' && /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(numeric));
  if (!valid) return mapFail('INVALID_FIELD', `${field} is neither an amount nor a percentage`, { field });
  const value = new Money(numeric as string | number);
  return mapOk(isPercent ? { percentage: value } : { amount: value });
}
