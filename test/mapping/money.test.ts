import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocateMoney,
  dec,
  formatMoney,
  minorUnit,
  minorUnits,
  Money,
  moneyEquals,
  parseAmount,
  parseAmountOrZero,
  parseOptionalAmount,
  percentOf,
  roundMoney,
  sumMoney,
  toWireNumber,
  tryWireNumber,
} from '../../src/mapping/money.js';

describe('parseAmount', () => {
  it.each([
    [12.5, '12.5'],
    [0.1, '0.1'],
    [88500, '88500'],
    ['88500.00', '88500'],
    [' 1200.50 ', '1200.5'],
    ['-42.10', '-42.1'],
    ['+3', '3'],
    ['.5', '0.5'],
    ['1e3', '1000'],
    [-0, '0'],
    ['-0.00', '0'],
  ])('given the vendor value %j, when parsed, then it is the decimal %s', (raw, expected) => {
    const r = parseAmount(raw);
    expect(r.ok && r.value.toFixed()).toBe(expected);
  });

  it.each([
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [Number.NEGATIVE_INFINITY],
    [''],
    ['   '],
    ['abc'],
    ['12abc'],
    ['1,200.00'],
    ['0x1F'],
    ['0b101'],
    ['Infinity'],
    ['NaN'],
    [true],
    [{}],
    [[1]],
  ])('given the garbage value %j, when parsed, then it is INVALID_FIELD naming the field', (raw) => {
    const r = parseAmount(raw, 'sub_total');
    expect(r).toMatchObject({ ok: false, reason: 'INVALID_FIELD', field: 'sub_total' });
  });

  it('given a bigint, when parsed, then it is INVALID_FIELD (vendors send JSON numbers or strings)', () => {
    expect(parseAmount(10n)).toMatchObject({ ok: false, reason: 'INVALID_FIELD' });
  });

  it.each([[null], [undefined]])('given %j, when parsed, then it is MISSING_FIELD', (raw) => {
    expect(parseAmount(raw, 'total')).toMatchObject({ ok: false, reason: 'MISSING_FIELD', field: 'total' });
  });

  it('given an absent optional amount, when parsed, then it is undefined, or zero for parseAmountOrZero', () => {
    expect(parseOptionalAmount(null)).toEqual({ ok: true, value: undefined });
    const zero = parseAmountOrZero(undefined);
    expect(zero.ok && zero.value.isZero()).toBe(true);
    expect(parseAmountOrZero('x')).toMatchObject({ ok: false, reason: 'INVALID_FIELD' });
  });
});

describe('minorUnits', () => {
  it.each([
    ['JPY', 0],
    ['KRW', 0],
    ['VND', 0],
    ['CLP', 0],
    ['ISK', 0],
    ['INR', 2],
    ['USD', 2],
    ['EUR', 2],
    ['AUD', 2],
    ['BHD', 3],
    ['KWD', 3],
    ['OMR', 3],
    ['JOD', 3],
    ['TND', 3],
    ['IQD', 3],
    ['LYD', 3],
    ['CLF', 4],
    ['jpy', 0],
    [' kwd ', 3],
    ['XYZ', 2],
  ])('given %s, then its minor unit has %i decimals', (currency, expected) => {
    expect(minorUnits(currency)).toBe(expected);
  });

  it('given a currency, then one minor unit is 10^-exponent', () => {
    expect(minorUnit('INR').toFixed()).toBe('0.01');
    expect(minorUnit('JPY').toFixed()).toBe('1');
    expect(minorUnit('KWD').toFixed()).toBe('0.001');
  });
});

describe('roundMoney (half away from zero)', () => {
  it.each([
    ['1.005', 'INR', '1.01'], // binary floats would give 1.00 (1.005 is 1.00499999... as a double)
    ['2.675', 'USD', '2.68'],
    ['0.125', 'EUR', '0.13'],
    ['0.135', 'EUR', '0.14'], // half-even would give 0.14 here but 0.12 above: we never round to even
    ['-1.005', 'INR', '-1.01'],
    ['-0.004', 'INR', '0'],
    ['0.004', 'INR', '0'],
    ['1234.5', 'JPY', '1235'],
    ['1234.4999', 'JPY', '1234'],
    ['-1234.5', 'JPY', '-1235'],
    ['1.0005', 'KWD', '1.001'],
    ['1.2345', 'KWD', '1.235'],
    ['0.0004', 'KWD', '0'],
    ['88500', 'INR', '88500'],
  ])('given %s %s, when rounded, then it is %s', (amount, currency, expected) => {
    expect(roundMoney(dec(amount), currency).toFixed()).toBe(expected);
  });
});

describe('toWireNumber', () => {
  it.each([
    ['1.005', 'INR', 1.01],
    ['88500.001', 'INR', 88500],
    ['1.2345', 'KWD', 1.235],
    ['1234.5', 'JPY', 1235],
    ['-0.001', 'INR', 0],
    ['9999999999999.99', 'INR', 9999999999999.99],
  ])('given %s %s, when sent, then the JSON number is %d', (amount, currency, expected) => {
    const n = toWireNumber(dec(amount), currency);
    expect(n).toBe(expected);
    expect(Object.is(n, -0)).toBe(false);
  });

  it('given an amount a double cannot carry exactly, when sent, then it throws rather than sending another amount', () => {
    const huge = dec('123456789012345678.91');
    expect(() => toWireNumber(huge, 'INR')).toThrow(RangeError);
    expect(tryWireNumber(huge, 'INR', 'total')).toMatchObject({ ok: false, reason: 'INVALID_FIELD', field: 'total' });
  });
});

describe('sumMoney and moneyEquals', () => {
  it('given 0.1 and 0.2, when summed, then the result is exactly 0.3 (floats give 0.30000000000000004)', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(sumMoney([dec(0.1), dec(0.2)]).eq(dec('0.3'))).toBe(true);
    expect(toWireNumber(sumMoney([dec(0.1), dec(0.2)]), 'INR')).toBe(0.3);
  });

  it('given random 2-decimal amounts, when summed with money.ts, then the sum equals integer-cent arithmetic exactly', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }), { maxLength: 200 }), (cents) => {
        // What a vendor's JSON delivers: the 2-decimal amount as a JS number.
        const amounts = cents.map((c) => parseAmount(c / 100));
        const decimals = amounts.map((a) => (a.ok ? a.value : dec(Number.NaN)));
        const centsTotal = cents.reduce((a, b) => a + b, 0); // integers below 2^53: exact
        const sum = sumMoney(decimals);
        expect(sum.eq(new Money(centsTotal).div(100))).toBe(true);
        expect(toWireNumber(sum, 'INR')).toBe(centsTotal / 100);
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['10.004', '10.00', 0, true],
    ['10.01', '10.00', 0, false],
    ['10.01', '10.00', 1, true],
    ['10.02', '10.00', 1, false],
    ['-5.005', '-5.01', 0, true],
  ])('given %s and %s INR with tolerance %i minor units, then equal is %s', (a, b, tolerance, expected) => {
    expect(moneyEquals(dec(a), dec(b), 'INR', tolerance)).toBe(expected);
  });

  it('given JPY, when compared, then the tolerance is in whole yen', () => {
    expect(moneyEquals(dec(1000), dec(1001), 'JPY', 1)).toBe(true);
    expect(moneyEquals(dec(1000), dec(1002), 'JPY', 1)).toBe(false);
  });

  it('given a rate, when percentOf is taken, then it is exact and unrounded', () => {
    expect(percentOf(dec('100.05'), dec(18)).toFixed()).toBe('18.009');
  });

  it('given a currency, when formatted, then it shows the minor units', () => {
    expect(formatMoney(dec(1200), 'JPY')).toBe('1200');
    expect(formatMoney(dec('1.25'), 'KWD')).toBe('1.250');
    expect(formatMoney(dec(88500), 'INR')).toBe('88500.00');
  });
});

describe('allocateMoney', () => {
  it.each([
    ['0.03', ['1', '1'], 'INR', ['0.02', '0.01']],
    ['-0.03', ['1', '1'], 'INR', ['-0.02', '-0.01']],
    ['100', ['1', '1', '1'], 'INR', ['33.34', '33.33', '33.33']],
    ['10', ['0', '0'], 'INR', ['5', '5']],
    ['101', ['9', '9'], 'JPY', ['51', '50']],
    ['0.003', ['1', '1'], 'KWD', ['0.002', '0.001']],
    ['10', ['1', '3'], 'INR', ['2.5', '7.5']],
    ['0.05', ['1', '2', '2'], 'INR', ['0.01', '0.02', '0.02']],
  ])('given %s split by weights %j in %s, then the parts are %j', (amount, weights, currency, expected) => {
    expect(allocateMoney(dec(amount), weights.map(dec), currency).map((d) => d.toFixed())).toEqual(expected);
  });

  it('given random amounts and weights, when allocated, then the parts sum exactly to the rounded amount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -10_000_000, max: 10_000_000 }),
        fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 1, maxLength: 8 }),
        (cents, weights) => {
          const amount = new Money(cents).div(100);
          const parts = allocateMoney(
            amount,
            weights.map((w) => dec(w)),
            'INR',
          );
          expect(sumMoney(parts).eq(amount)).toBe(true);
          for (const p of parts) expect(p.decimalPlaces()).toBeLessThanOrEqual(2);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('given no weights or a negative weight, then it is a programming error', () => {
    expect(() => allocateMoney(dec(1), [], 'INR')).toThrow(RangeError);
    expect(() => allocateMoney(dec(1), [dec(-1)], 'INR')).toThrow(RangeError);
  });
});
