/**
 * Exact money arithmetic for the sandbox, in integer minor units (paise, cents). Every amount the emulator
 * prints is derived from these integers, so totals always add up to the paisa.
 */

/** Minor units → the JSON number Zoho prints (at most 2 decimals; n / 100 is the double nearest the decimal). */
export function toAmount(minor: number): number {
  return minor / 100;
}

/** A JSON amount with at most 2 decimals → integer minor units. */
export function toMinor(amount: number): number {
  return Math.round(amount * 100);
}

/** Rounds numerator / denominator half away from zero (how Zoho rounds to 2 places). */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (n * 2n + d) / (2n * d);
  return negative ? -q : q;
}

const FAST_LIMIT = 2 ** 50;

/**
 * round(numerator / denominator) half away from zero for integer inputs; plain doubles while the
 * numerator is far below 2^53 (floor of a double quotient is exact there), BigInt beyond.
 */
export function roundDiv(numerator: number, denominator: number): number {
  if (Math.abs(numerator) * 2 + denominator < FAST_LIMIT) {
    const q = Math.floor((Math.abs(numerator) * 2 + denominator) / (denominator * 2));
    return numerator < 0 ? -q : q;
  }
  return Number(divideRounded(BigInt(numerator), BigInt(denominator)));
}

/** Product of two integers divided and rounded, exact even when the product exceeds 2^53. */
export function mulDivRounded(a: number, b: number, denominator: number): number {
  const product = a * b;
  if (Math.abs(product) < FAST_LIMIT) return roundDiv(product, denominator);
  return Number(divideRounded(BigInt(a) * BigInt(b), BigInt(denominator)));
}

/** `basisPoints` / 100 percent of `minor`, rounded to a whole minor unit (18% = 1800 bp). */
export function percentOf(minor: number, basisPoints: number): number {
  return mulDivRounded(minor, basisPoints, 10_000);
}

/** Converts an invoice-currency amount to base currency: `rateMicro` = exchange rate × 1e6. */
export function convertMinor(minor: number, rateMicro: number): number {
  return mulDivRounded(minor, rateMicro, 1_000_000);
}

/** Exchange rate as printed (e.g. 83.125) → integer micro-units. */
export function rateToMicro(rate: number): number {
  return Math.round(rate * 1_000_000);
}

/**
 * Splits `total` across `weights` in proportion, largest remainder first, so the parts sum to `total`
 * exactly (used to spread an entity-level discount over lines before tax).
 */
export function allocate(total: number, weights: readonly number[]): number[] {
  const sum = BigInt(weights.reduce((s, w) => s + w, 0));
  if (sum <= 0n) return weights.map((_, i) => (i === 0 ? total : 0));
  const t = BigInt(total);
  const parts = weights.map((w) => Number((t * BigInt(w)) / sum));
  let rest = total - parts.reduce((s, p) => s + p, 0);
  const order = weights
    .map((w, i) => ({ i, remainder: (t * BigInt(w)) % sum }))
    .sort((a, b) => (a.remainder === b.remainder ? a.i - b.i : a.remainder > b.remainder ? -1 : 1));
  for (const { i } of order) {
    if (rest <= 0) break;
    parts[i] = (parts[i] ?? 0) + 1;
    rest -= 1;
  }
  return parts;
}
