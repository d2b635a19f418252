import { Decimal as DecimalJs } from 'decimal.js';

/**
 * Exact money for every emulator. Amounts are integer minor units (paise, cents) or decimals; no float
 * arithmetic on amounts. A JS number appears only when an emulator prints an amount (`toAmount`, `round2`).
 *
 * Rounding is half away from zero (decimal.js ROUND_HALF_UP), as Zoho Books, QuickBooks and Xero round
 * tax and line amounts, so -0.005 rounds to -0.01, the negation of 0.005.
 */

/** A private decimal.js clone: 34 significant digits, half away from zero, never exponent notation. */
export const Money = DecimalJs.clone({ precision: 34, rounding: DecimalJs.ROUND_HALF_UP, toExpNeg: -34, toExpPos: 34 });
export type Decimal = DecimalJs;
export const ZERO: Decimal = new Money(0);

/** ISO 4217 minor-unit exponents other than 2 (unknown codes get 2). */
const EXPONENTS: Readonly<Record<string, number>> = {
  ...Object.fromEntries(
    [
      'BIF',
      'CLP',
      'DJF',
      'GNF',
      'ISK',
      'JPY',
      'KMF',
      'KRW',
      'PYG',
      'RWF',
      'UGX',
      'UYI',
      'VND',
      'VUV',
      'XAF',
      'XOF',
      'XPF',
    ].map((c) => [c, 0]),
  ),
  ...Object.fromEntries(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'].map((c) => [c, 3])),
  CLF: 4,
  UYW: 4,
};

/** Rounds to the currency's minor units (INR 2, JPY 0, KWD 3). */
export function roundMoney(amount: Decimal, currency: string): Decimal {
  const rounded = new Money(amount).toDecimalPlaces(
    EXPONENTS[currency.trim().toUpperCase()] ?? 2,
    DecimalJs.ROUND_HALF_UP,
  );
  return rounded.isZero() ? ZERO : rounded;
}

/** A decimal from a number, numeric string or decimal (absent is zero). */
export function dec(value: DecimalJs.Value | null | undefined): Decimal {
  return new Money(value ?? 0);
}

/** Rounds to 2 places and prints it as a JSON number. */
export function round2(value: Decimal): number {
  return value.toDecimalPlaces(2, DecimalJs.ROUND_HALF_UP).toNumber();
}

/** a − b − c − …, rounded to 2 places. */
export function minus(a: DecimalJs.Value, ...rest: DecimalJs.Value[]): number {
  let d = dec(a);
  for (const r of rest) if (r !== 0) d = d.minus(r);
  return round2(d);
}

/** Σ values, rounded to 2 places. */
export function sum(values: Iterable<DecimalJs.Value>): number {
  let d = ZERO;
  for (const v of values) d = d.plus(v);
  return round2(d);
}

/** Minor units → the JSON number a vendor prints (70800.5 for 7080050; n / 100 is the double nearest the decimal). */
export function toAmount(minor: number): number {
  return minor / 100;
}

/** A decimal amount (number or string) → minor units; throws on more than 2 decimals. */
export function toMinor(amount: number | string): number {
  const d = new Money(amount).times(100);
  if (!d.isInteger()) throw new RangeError(`amount has more than 2 decimals: ${String(amount)}`);
  return d.toNumber();
}

/** A decimal amount → minor units, rounded half away from zero (for inputs that may carry more decimals). */
export function roundToMinor(amount: number | string): number {
  return new Money(amount).times(100).toDecimalPlaces(0, DecimalJs.ROUND_HALF_UP).toNumber();
}

/** Rounds numerator / denominator half away from zero. */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (n * 2n + d) / (2n * d);
  return negative ? -q : q;
}

/** a × b / denominator for integers, rounded half away from zero, exact even past 2^53. */
export function mulDivRounded(a: number, b: number, denominator: number): number {
  return Number(divideRounded(BigInt(a) * BigInt(b), BigInt(denominator)));
}

/** `basisPoints` / 100 percent of `minor`, rounded to a whole minor unit (18 % = 1800 bp). */
export function percentOf(minor: number, basisPoints: number): number {
  return mulDivRounded(minor, basisPoints, 10_000);
}

/** An exchange rate as printed (83.125) → integer micro-units (83125000), so rates stay integers. */
export function rateToMicro(rate: number): number {
  return Math.round(rate * 1_000_000);
}

/** Minor units in one currency × rate (a decimal string or number, or integer micro-units with `micro`) → the other currency's minor units. */
export function convertMinor(minor: number, rate: DecimalJs.Value, unit: 'rate' | 'micro' = 'rate'): number {
  if (unit === 'micro') return mulDivRounded(minor, Number(rate), 1_000_000);
  return new Money(minor).times(rate).toDecimalPlaces(0, DecimalJs.ROUND_HALF_UP).toNumber();
}

/**
 * Splits `total` across `weights` in proportion, largest remainder first (the earlier part on a tie), so
 * the parts sum to `total` exactly; all-zero weights give everything to the first part.
 */
export function allocate(total: number, weights: readonly number[]): number[] {
  const sumW = BigInt(weights.reduce((s, w) => s + w, 0));
  if (sumW <= 0n) return weights.map((_, i) => (i === 0 ? total : 0));
  const t = BigInt(total);
  const parts = weights.map((w) => Number((t * BigInt(w)) / sumW));
  let rest = total - parts.reduce((s, p) => s + p, 0);
  const order = weights
    .map((w, i) => ({ i, remainder: (t * BigInt(w)) % sumW }))
    .sort((a, b) => (a.remainder === b.remainder ? a.i - b.i : a.remainder > b.remainder ? -1 : 1));
  for (const { i } of order) {
    if (rest <= 0) break;
    parts[i] = (parts[i] ?? 0) + 1;
    rest -= 1;
  }
  return parts;
}
