import { describe, expect, it } from 'vitest';
import { dec, mapOk, wireAmount, type MapResult } from '../../src/mapping/index.js';
import { mapping } from '../../src/mapping/steps.js';

const wired = (amount: string, currency: string): MapResult<number> =>
  mapping((s) => mapOk(wireAmount(s, dec(amount), currency, 'lineItems.0.total')));

describe('wireAmount: an amount as the JSON number billing receives', () => {
  it('given an amount with more decimals than the currency, then it is rounded half away from zero to the minor units', () => {
    expect(wired('10.005', 'INR')).toEqual({ ok: true, value: 10.01 });
    expect(wired('-10.005', 'INR')).toEqual({ ok: true, value: -10.01 });
    expect(wired('1234.5', 'JPY')).toEqual({ ok: true, value: 1235 });
  });

  it('given an amount that cannot travel exactly as a JSON number, then the record fails with INVALID_FIELD naming the field', () => {
    const result = wired('12345678901234567.89', 'INR');
    expect(result).toMatchObject({ ok: false, reason: 'INVALID_FIELD', field: 'lineItems.0.total' });
  });
});
