import { Decimal } from 'decimal.js';

/**
 * Exact money for the generator: amounts are integer paise (minor units), percentages are basis points
 * (18 % = 1800), exchange rates decimal strings. Rendering divides by 100 once, which JSON prints as the
 * exact 2-decimal figure. Half-up rounding, as QuickBooks rounds tax.
 */
export function percentOfPaise(paise: number, basisPoints: number): number {
  if (!Number.isSafeInteger(paise) || paise < 0) throw new RangeError(`paise must be a non-negative integer: ${paise}`);
  return Math.floor((2 * paise * basisPoints + 10_000) / 20_000);
}

/** Foreign paise × rate (home per foreign) → home paise, half up. */
export function convertPaise(paise: number, rate: string): number {
  return new Decimal(paise).times(rate).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}

/** Paise → the JSON number QuickBooks would send (70800.5 for 7080050). */
export function toAmount(paise: number): number {
  return paise / 100;
}

/** A decimal amount (number or string) → paise; throws on more than 2 decimals. */
export function toPaise(amount: number | string): number {
  const d = new Decimal(amount).times(100);
  if (!d.isInteger()) throw new RangeError(`amount has more than 2 decimals: ${String(amount)}`);
  return d.toNumber();
}
