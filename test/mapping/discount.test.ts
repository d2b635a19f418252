import { describe, expect, it } from 'vitest';
import { Discount } from '../../src/billing/schemas/tax.js';
import { buildDiscount, entityDiscount, itemDiscount, parseDiscountValue } from '../../src/mapping/discount.js';
import { dec } from '../../src/mapping/money.js';

describe('entityDiscount (invoice-level)', () => {
  it.each([
    // amount, percentage, subtotal, tax, isPostTax, currency → expected
    ['500', undefined, '10000', undefined, false, 'INR', { amount: 500, percentage: 5, isPostTax: false }],
    [undefined, '12.5', '10000', undefined, false, 'INR', { amount: 1250, percentage: 12.5, isPostTax: false }],
    ['118', undefined, '1000', '180', true, 'INR', { amount: 118, percentage: 10, isPostTax: true }],
    [undefined, '10', '1000', '180', true, 'INR', { amount: 118, percentage: 10, isPostTax: true }],
    [undefined, '10', '1000', '180', false, 'INR', { amount: 100, percentage: 10, isPostTax: false }],
    ['100', undefined, '300', undefined, false, 'INR', { amount: 100, percentage: 33.3333, isPostTax: false }],
    [undefined, '3.5', '1001', undefined, false, 'JPY', { amount: 35, percentage: 3.5, isPostTax: false }], // 35.035 → 35
    [undefined, '0.5', '10.001', undefined, false, 'KWD', { amount: 0.05, percentage: 0.5, isPostTax: false }], // 0.050005
  ])(
    'given amount %s, percentage %s on subtotal %s, tax %s, post-tax %s in %s, then the Discount is %j',
    (amount, percentage, subtotal, tax, isPostTax, currency, expected) => {
      const r = entityDiscount({
        ...(amount ? { amount: dec(amount) } : {}),
        ...(percentage ? { percentage: dec(percentage) } : {}),
        subtotal: dec(subtotal),
        ...(tax ? { tax: dec(tax) } : {}),
        isPostTax,
        currency,
      });
      expect(r).toEqual({ ok: true, value: expected });
      expect(Discount.parse(expected)).toEqual(expected);
    },
  );

  it('given no discount or zero, then there is none to send', () => {
    expect(entityDiscount({ subtotal: dec(100), isPostTax: false, currency: 'INR' })).toEqual({
      ok: true,
      value: undefined,
    });
    expect(
      entityDiscount({ amount: dec(0), percentage: dec(0), subtotal: dec(100), isPostTax: false, currency: 'INR' }),
    ).toEqual({
      ok: true,
      value: undefined,
    });
  });
});

describe('itemDiscount (line-level)', () => {
  it('given 3 × 33.33 at 10 %, then the discount is 10.00 (9.999 rounded half-up) on the gross line', () => {
    expect(itemDiscount({ percentage: dec(10), quantity: dec(3), unitPrice: dec('33.33'), currency: 'INR' })).toEqual({
      ok: true,
      value: { amount: 10, percentage: 10, isPostTax: false },
    });
  });

  it('given an amount only, then the percentage is derived from quantity × unit price', () => {
    const r = itemDiscount({
      amount: dec(30),
      quantity: dec(8),
      unitPrice: dec(150),
      currency: 'USD',
      field: 'LineItems.1',
    });
    expect(r).toEqual({ ok: true, value: { amount: 30, percentage: 2.5, isPostTax: false } });
  });
});

describe('buildDiscount failures and warnings', () => {
  it.each([
    [{ amount: dec(-5) }, 'INVALID_FIELD'],
    [{ percentage: dec(-5), base: dec(100) }, 'INVALID_FIELD'],
    [{ percentage: dec(101), base: dec(100) }, 'INVALID_FIELD'],
    [{ amount: dec('100.02'), base: dec(100) }, 'AMOUNTS_INCONSISTENT'],
    [{ percentage: dec(10) }, 'MISSING_FIELD'],
  ])('given %o, then %s', (spec, reason) => {
    expect(buildDiscount({ ...spec, isPostTax: false, currency: 'INR' })).toMatchObject({ ok: false, reason });
  });

  it('given an amount and a percentage that disagree, then the amount wins and a warning names both', () => {
    const r = buildDiscount({
      amount: dec(150),
      percentage: dec(10),
      base: dec(1000),
      isPostTax: false,
      currency: 'INR',
    });
    expect(r.ok && r.value).toEqual({ amount: 150, percentage: 10, isPostTax: false });
    expect(r.ok && r.warnings?.[0]).toMatch(/10 % of 1000\.00 is not the amount 150\.00/);
  });

  it('given an amount and a percentage that agree within a paisa, then no warning', () => {
    const r = buildDiscount({
      amount: dec('33.33'),
      percentage: dec('33.333'),
      base: dec(100),
      isPostTax: false,
      currency: 'INR',
    });
    expect(r).toEqual({ ok: true, value: { amount: 33.33, percentage: 33.333, isPostTax: false } });
  });
});

describe('parseDiscountValue (Zoho "discount")', () => {
  it.each([
    ['12.5%', { percentage: '12.5' }],
    [' 10 % ', { percentage: '10' }],
    [100, { amount: '100' }],
    ['100.00', { amount: '100' }],
    [0, { amount: '0' }],
  ])('given %j, then it is %j', (raw, expected) => {
    const r = parseDiscountValue(raw);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.fromEntries(Object.entries(r.value).map(([k, v]) => [k, v.toFixed()]))).toEqual(expected);
  });

  it.each([[null], [undefined], ['']])('given %j, then no discount', (raw) => {
    expect(parseDiscountValue(raw)).toEqual({ ok: true, value: {} });
  });

  it.each([['abc'], ['%'], ['10%%'], [Number.NaN], [true]])('given %j, then INVALID_FIELD', (raw) => {
    expect(parseDiscountValue(raw)).toMatchObject({ ok: false, reason: 'INVALID_FIELD', field: 'discount' });
  });
});
