import { Decimal as DecimalJs } from 'decimal.js';
import { mapFail, mapOk, type MapResult } from './quarantine-reason.js';

/**
 * Decimal money. Vendors send amounts as JSON numbers (sometimes numeric strings); a JS number is only
 * ever a carrier here: it is parsed into a decimal at the edge, all arithmetic is decimal, and a number
 * comes back only in `toWireNumber`, after rounding to the currency's minor units (README, "Money is exact").
 *
 * A private clone of decimal.js, so another module changing the global Decimal config cannot change our
 * rounding. 34 significant digits keeps every sum exact for any real document (15 integer digits plus a
 * handful of decimals), and the exponent limits keep `toString()` out of exponent notation in messages.
 *
 * Rounding is ROUND_HALF_UP, which decimal.js defines as "half away from zero": 0.005 → 0.01 and
 * -0.005 → -0.01. That is the commercial rounding Zoho Books, QuickBooks and Xero apply to tax and
 * line amounts (and what Indian GST invoices show), so our rounded figures match the ERP's to the paisa.
 * Banker's rounding (half-even) would differ from the ERP by one minor unit on every .xx5 figure and
 * trip the consistency checks or the reconciliation diff. Being symmetric around zero, credit notes and
 * negative lines round to the negation of their positive counterparts.
 */
export const Money = DecimalJs.clone({
  precision: 34,
  rounding: DecimalJs.ROUND_HALF_UP,
  toExpNeg: -34,
  toExpPos: 34,
});
export type Decimal = DecimalJs;

export const ZERO: Decimal = new Money(0);

/** A decimal from a trusted literal in our own code (constants, tests). Throws on garbage: use parseAmount for vendor data. */
export function dec(value: DecimalJs.Value): Decimal {
  const d = new Money(value);
  if (!d.isFinite()) throw new RangeError(`not a finite decimal: ${String(value)}`);
  return d;
}

/**
 * Plain decimal notation only: optional sign, digits, optional fraction, optional exponent. Rejects what
 * decimal.js would otherwise accept (hex "0x1F", binary, "Infinity", "NaN") and locale forms ("1,200.00")
 * whose meaning depends on the sender.
 */
const NUMERIC_STRING = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Parses a vendor amount: a finite JS number, a numeric string, or a Decimal. null/undefined is
 * MISSING_FIELD; anything else (NaN, Infinity, "", "abc", "1,200", booleans, objects) is INVALID_FIELD.
 * A JS number converts through its shortest round-trip text (decimal.js does that), so 0.1 is exactly 0.1,
 * which is what the vendor wrote in its JSON.
 */
export function parseAmount(raw: unknown, field = 'amount'): MapResult<Decimal> {
  if (raw === null || raw === undefined) return mapFail('MISSING_FIELD', `${field} is missing`, { field });
  let value: Decimal | undefined;
  if (typeof raw === 'number') {
    if (Number.isFinite(raw)) value = new Money(raw);
  } else if (typeof raw === 'string') {
    const text = raw.trim();
    if (NUMERIC_STRING.test(text)) value = new Money(text);
  } else if (DecimalJs.isDecimal(raw)) {
    if (raw.isFinite()) value = new Money(raw);
  }
  if (value === undefined || !value.isFinite()) {
    return mapFail('INVALID_FIELD', `${field} is not a finite number (${describe(raw)})`, { field });
  }
  // -0 would print as "-0" in messages and serialise as 0 anyway; normalise it.
  return mapOk(value.isZero() ? ZERO : value);
}

/** As parseAmount, but an absent value (null/undefined) is fine and gives undefined. */
export function parseOptionalAmount(raw: unknown, field = 'amount'): MapResult<Decimal | undefined> {
  if (raw === null || raw === undefined) return mapOk(undefined);
  return parseAmount(raw, field);
}

/** As parseOptionalAmount, with absent meaning zero (vendors omit zero discounts, adjustments...). */
export function parseAmountOrZero(raw: unknown, field = 'amount'): MapResult<Decimal> {
  if (raw === null || raw === undefined) return mapOk(ZERO);
  return parseAmount(raw, field);
}

function describe(raw: unknown): string {
  if (typeof raw === 'string') return raw.length > 32 ? `string of length ${raw.length}` : JSON.stringify(raw);
  if (typeof raw === 'number') return String(raw);
  return typeof raw;
}

/**
 * ISO 4217 minor-unit exponents that differ from 2. Unknown or non-ISO codes get 2, the common case.
 * Source: ISO 4217 list one (exponent column); funds codes included for completeness.
 */
const EXPONENTS: Readonly<Record<string, number>> = {
  // 0 decimals
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  // 3 decimals
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  // 4 decimals (units of account)
  CLF: 4,
  UYW: 4,
};

/** Number of decimal places of the currency's minor unit: JPY 0, INR 2, KWD 3. */
export function minorUnits(currency: string): number {
  return EXPONENTS[currency.trim().toUpperCase()] ?? 2;
}

/** One minor unit of the currency as a decimal: 0.01 for INR, 1 for JPY, 0.001 for KWD. */
export function minorUnit(currency: string): Decimal {
  return new Money(10).pow(-minorUnits(currency));
}

/** Rounds half away from zero (see the note on `Money`) to the currency's minor units. */
export function roundMoney(amount: Decimal, currency: string): Decimal {
  const rounded = new Money(amount).toDecimalPlaces(minorUnits(currency), DecimalJs.ROUND_HALF_UP);
  return rounded.isZero() ? ZERO : rounded;
}

/** Exact decimal sum (no rounding). */
export function sumMoney(amounts: Iterable<Decimal>): Decimal {
  let total = ZERO;
  for (const a of amounts) total = total.plus(a);
  return total;
}

/** amount × rate / 100, exact (unrounded): the tax or discount at a percentage rate. */
export function percentOf(amount: Decimal, ratePercent: Decimal): Decimal {
  return new Money(amount).times(ratePercent).div(100);
}

/**
 * The JSON number for the billing API: rounds to the currency's minor units, then converts. Throws a
 * RangeError when the rounded value cannot travel as a JS number without changing (more than ~15
 * significant digits, i.e. beyond 10^13 in a 2-decimal currency), because silently sending a different
 * amount is worse than failing. Mappers that cannot rule that out use `tryWireNumber`.
 */
export function toWireNumber(amount: Decimal, currency: string): number {
  const result = tryWireNumber(amount, currency);
  if (!result.ok) throw new RangeError(result.message);
  return result.value;
}

/** As toWireNumber, but an unrepresentable amount is an INVALID_FIELD MapResult instead of a throw. */
export function tryWireNumber(amount: Decimal, currency: string, field = 'amount'): MapResult<number> {
  const rounded = roundMoney(amount, currency);
  const n = rounded.toNumber();
  // decimal.js reads a number through its shortest round-trip text, the same text JSON.stringify writes,
  // so this equality means "the JSON on the wire says exactly `rounded`".
  if (!Number.isFinite(n) || !new Money(n).eq(rounded)) {
    return mapFail(
      'INVALID_FIELD',
      `${field} ${rounded.toFixed()} ${currency} cannot be sent as an exact JSON number`,
      {
        field,
      },
    );
  }
  return mapOk(n === 0 ? 0 : n);
}

/**
 * True when a and b differ by at most `toleranceMinorUnits` minor units of the currency. Both sides are
 * first rounded to the currency, so 10.004 and 10.00 are equal with tolerance 0.
 */
export function moneyEquals(a: Decimal, b: Decimal, currency: string, toleranceMinorUnits = 0): boolean {
  const diff = roundMoney(a, currency).minus(roundMoney(b, currency)).abs();
  return diff.lte(minorUnit(currency).times(toleranceMinorUnits));
}

/** Fixed-point text with the currency's decimals, for messages: "88500.00", "1200", "1.250". */
export function formatMoney(amount: Decimal, currency: string): string {
  return roundMoney(amount, currency).toFixed(minorUnits(currency));
}

/**
 * Splits `amount` (rounded to the currency first) into parts proportional to `weights`, each a whole
 * number of minor units, summing exactly to the rounded amount. Largest-remainder method: every part
 * gets the floor of its exact share, and the minor units left over go one each to the largest fractional
 * remainders; on equal remainders the earlier part wins, so the result is deterministic and "the first
 * part gets the odd paisa" when weights are equal. Negative amounts are split by magnitude and negated,
 * so splitting -x gives the negation of splitting x. All-zero weights split equally.
 */
export function allocateMoney(amount: Decimal, weights: readonly Decimal[], currency: string): Decimal[] {
  if (weights.length === 0) throw new RangeError('allocateMoney needs at least one weight');
  if (weights.some((w) => w.isNegative() && !w.isZero()))
    throw new RangeError('allocateMoney weights must not be negative');
  const unit = minorUnit(currency);
  const total = roundMoney(amount, currency);
  const units = total.div(unit).abs();
  const sign = total.isNegative() ? -1 : 1;
  const ws = weights.every((w) => w.isZero()) ? weights.map(() => new Money(1)) : weights.map((w) => new Money(w));
  const weightSum = sumMoney(ws);
  const shares = ws.map((w, index) => {
    const exact = units.times(w).div(weightSum);
    const floor = exact.floor();
    return { index, floor, remainder: exact.minus(floor) };
  });
  // Fewer left-over units than parts, since each floor loses less than one unit.
  const left = units.minus(sumMoney(shares.map((s) => s.floor))).toNumber();
  const byRemainder = [...shares].sort((a, b) => b.remainder.comparedTo(a.remainder) || a.index - b.index);
  const extra = new Set(byRemainder.slice(0, left).map((s) => s.index));
  return shares.map((s) => {
    const part = s.floor
      .plus(extra.has(s.index) ? 1 : 0)
      .times(unit)
      .times(sign);
    return part.isZero() ? ZERO : part;
  });
}
