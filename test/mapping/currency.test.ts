import { describe, expect, it } from 'vitest';
import {
  crossCheckExchangeRate,
  deriveExchangeRate,
  resolveExchangeRate,
  type RateDirection,
} from '../../src/mapping/currency.js';
import { dec } from '../../src/mapping/money.js';

describe('resolveExchangeRate', () => {
  it.each<[string, string, string, unknown, RateDirection, number]>([
    ['Zoho: EUR invoice, USD base, exchange_rate passes through', 'EUR', 'USD', 1.18, 'base-per-foreign', 1.18],
    [
      'QuickBooks: USD invoice, INR base, ExchangeRate passes through',
      'USD',
      'INR',
      83.1234,
      'base-per-foreign',
      83.1234,
    ],
    ['a numeric string rate', 'USD', 'INR', '83.5', 'base-per-foreign', 83.5],
    ['Xero: USD invoice, AUD base, CurrencyRate 0.65 is inverted', 'USD', 'AUD', 0.65, 'foreign-per-base', 1.538461538],
    ['Xero: rate 0.5 inverts exactly', 'USD', 'AUD', 0.5, 'foreign-per-base', 2],
    [
      'Xero: rate 82.9 (INR per AUD) inverts to 10 significant digits',
      'INR',
      'AUD',
      82.9,
      'foreign-per-base',
      0.01206272618,
    ],
  ])('given %s, then exchangeRate is %d', (_, invoiceCurrency, baseCurrency, rate, direction, expected) => {
    expect(resolveExchangeRate({ invoiceCurrency, baseCurrency, rate, direction })).toEqual({
      ok: true,
      exchangeRate: expected,
    });
  });

  it.each<[string, string, unknown]>([
    ['rate 1 (Zoho sample)', 'INR', 1],
    ['no rate', 'INR', undefined],
    ['a different rate', 'INR', 83.2],
    ['lower-case codes', 'inr', 1],
  ])('given a base-currency invoice with %s, then exchangeRate is omitted', (_, invoiceCurrency, rate) => {
    const r = resolveExchangeRate({ invoiceCurrency, baseCurrency: 'INR', rate, direction: 'base-per-foreign' });
    expect(r.ok).toBe(true);
    expect('exchangeRate' in r).toBe(false);
  });

  it('given a base-currency invoice with an odd rate, then a warning says it was ignored', () => {
    const r = resolveExchangeRate({
      invoiceCurrency: 'INR',
      baseCurrency: 'INR',
      rate: 83.2,
      direction: 'base-per-foreign',
    });
    expect(r.ok && r.warnings?.[0]).toMatch(/ignored/);
  });

  it.each<[string, unknown, RateDirection, 'FX_SUSPECT' | 'FX_UNDERIVABLE']>([
    ['rate exactly 1', 1, 'base-per-foreign', 'FX_SUSPECT'],
    ['rate "1.000000"', '1.000000', 'base-per-foreign', 'FX_SUSPECT'],
    ['Xero rate 1', 1, 'foreign-per-base', 'FX_SUSPECT'],
    ['Xero rate that inverts to 1 at 10 digits', 0.99999999999, 'foreign-per-base', 'FX_SUSPECT'],
    ['no rate', undefined, 'base-per-foreign', 'FX_UNDERIVABLE'],
    ['null rate', null, 'base-per-foreign', 'FX_UNDERIVABLE'],
    ['rate 0', 0, 'foreign-per-base', 'FX_UNDERIVABLE'],
    ['negative rate', -1.2, 'base-per-foreign', 'FX_UNDERIVABLE'],
    ['garbage rate', 'n/a', 'base-per-foreign', 'FX_UNDERIVABLE'],
    ['NaN rate', Number.NaN, 'base-per-foreign', 'FX_UNDERIVABLE'],
  ])('given a USD invoice in an INR company with %s, then %s, never 1:1', (_, rate, direction, reason) => {
    const r = resolveExchangeRate({
      invoiceCurrency: 'USD',
      baseCurrency: 'INR',
      rate,
      direction,
      field: 'exchange_rate',
    });
    expect(r).toMatchObject({ ok: false, reason, field: 'exchange_rate' });
    expect(!r.ok && r.message).toMatch(/USD invoice in a INR company/);
  });

  it('given no rate but the vendor base totals, then the rate is derived from them with a warning', () => {
    const r = resolveExchangeRate({
      invoiceCurrency: 'USD',
      baseCurrency: 'INR',
      rate: undefined,
      direction: 'base-per-foreign',
      fromTotals: { total: dec(1000), baseTotal: dec(83120) },
    });
    expect(r).toMatchObject({ ok: true, exchangeRate: 83.12 });
    expect(r.ok && r.warnings?.[0]).toMatch(/derived from base-currency totals/);
  });

  it('given base totals equal to the totals, when the rate is derived, then FX_SUSPECT', () => {
    const r = resolveExchangeRate({
      invoiceCurrency: 'USD',
      baseCurrency: 'INR',
      rate: 0,
      direction: 'base-per-foreign',
      fromTotals: { total: dec(1000), baseTotal: dec(1000) },
    });
    expect(r).toMatchObject({ ok: false, reason: 'FX_SUSPECT' });
  });

  it('given a malformed currency code, then INVALID_FIELD', () => {
    expect(
      resolveExchangeRate({ invoiceCurrency: 'US', baseCurrency: 'INR', rate: 2, direction: 'base-per-foreign' }),
    ).toMatchObject({
      ok: false,
      reason: 'INVALID_FIELD',
    });
    expect(
      resolveExchangeRate({ invoiceCurrency: 'USD', baseCurrency: '', rate: 2, direction: 'base-per-foreign' }),
    ).toMatchObject({
      ok: false,
      reason: 'INVALID_FIELD',
    });
  });
});

describe('deriveExchangeRate and crossCheckExchangeRate', () => {
  it.each([
    ['88500', '88500', '1'],
    ['2400', '3692.31', '1.5384625'],
    ['1000', '83120', '83.12'],
    ['3', '1', '0.3333333333'],
  ])('given total %s and base total %s, then the derived rate is %s', (total, baseTotal, expected) => {
    expect(deriveExchangeRate({ total: dec(total), baseTotal: dec(baseTotal) })?.toFixed()).toBe(expected);
  });

  it.each([
    ['0', '100'],
    ['100', '0'],
    ['100', '-83'],
  ])('given total %s and base total %s, then no rate can be derived', (total, baseTotal) => {
    expect(deriveExchangeRate({ total: dec(total), baseTotal: dec(baseTotal) })).toBeUndefined();
  });

  it('given the Xero sample (2400 USD, base 3692.31 AUD) and the inverted rate, then the cross-check agrees', () => {
    const r = crossCheckExchangeRate({
      exchangeRate: 1.538461538,
      total: dec(2400),
      baseTotal: dec('3692.31'),
      baseCurrency: 'AUD',
    });
    expect(r.ok && r.value.expectedBaseTotal.toFixed()).toBe('3692.31');
  });

  it('given the Xero rate used without inversion, then FX_SUSPECT says the direction is wrong', () => {
    const r = crossCheckExchangeRate({
      exchangeRate: 0.65,
      total: dec(2400),
      baseTotal: dec('3692.31'),
      baseCurrency: 'AUD',
    });
    expect(r).toMatchObject({ ok: false, reason: 'FX_SUSPECT' });
    expect(!r.ok && r.message).toMatch(/1560\.00 AUD.*3692\.31.*direction is wrong/);
  });

  it('given base totals off by per-line rounding, then the cross-check tolerates it; off by 0.5 %, then not', () => {
    const base = { exchangeRate: 1.18, total: dec(1000), baseCurrency: 'USD' };
    expect(crossCheckExchangeRate({ ...base, baseTotal: dec('1180.03') }).ok).toBe(true);
    expect(crossCheckExchangeRate({ ...base, baseTotal: dec('1185.90') })).toMatchObject({
      ok: false,
      reason: 'FX_SUSPECT',
    });
    expect(crossCheckExchangeRate({ ...base, baseTotal: dec('1180.03'), relativeTolerance: 0 })).toMatchObject({
      ok: false,
    });
  });
});
