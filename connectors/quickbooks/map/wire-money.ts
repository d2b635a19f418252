import { type Decimal, type MapFailure, tryWireNumber } from '../../../src/mapping/index.js';

/**
 * Emits amounts as JSON numbers (rounded to the currency's minor units), remembering the first amount
 * that cannot travel exactly instead of throwing mid-build; the mapper returns `failure` if set.
 */
export class WireMoney {
  failure: MapFailure | undefined;

  constructor(readonly currency: string) {}

  num(amount: Decimal, field: string): number {
    const r = tryWireNumber(amount, this.currency, field);
    if (r.ok) return r.value;
    this.failure ??= r;
    return 0;
  }
}
