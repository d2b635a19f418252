import { Decimal } from 'decimal.js';

/**
 * Money helpers: every amount the emulator computes goes through decimal.js and is rounded to 2 places
 * (half up); only the final value becomes a JSON number. No float arithmetic on amounts.
 */
export type Amount = Decimal.Value;

export function dec(value: Amount | null | undefined): Decimal {
  return new Decimal(value ?? 0);
}

export function round2(value: Decimal): number {
  return value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toNumber();
}

/** a − b − c − …, rounded to 2 places. */
export function minus(a: Amount, ...rest: Amount[]): number {
  let d = dec(a);
  for (const r of rest) if (r !== 0) d = d.minus(r);
  return round2(d);
}

/** Σ values, rounded to 2 places. */
export function sum(values: Iterable<Amount>): number {
  let d = new Decimal(0);
  for (const v of values) d = d.plus(v);
  return round2(d);
}
