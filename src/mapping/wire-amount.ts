import type { Decimal } from './money.js';
import { tryWireNumber } from './money.js';
import type { Steps } from './steps.js';

/**
 * An amount as the JSON number billing receives, rounded to the currency's minor units; an amount that
 * cannot travel exactly as a JSON number fails the record (INVALID_FIELD naming `field`) instead of
 * sending a different figure (tryWireNumber).
 */
export function wireAmount(s: Steps, amount: Decimal, currency: string, field: string): number {
  return s.take(tryWireNumber(amount, currency, field));
}
