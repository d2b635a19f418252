import { describe, expect, it } from 'vitest';
import { dec, quantityAndPrice } from '../../src/mapping/index.js';

const text = (r: { quantity: { toFixed(): string }; unitPrice: { toFixed(): string } }) => ({
  quantity: r.quantity.toFixed(),
  unitPrice: r.unitPrice.toFixed(),
});

describe('quantityAndPrice: the missing figures of a priced line, as the vendors derive them', () => {
  it('given an amount with neither quantity nor unit price (a description with an amount), then quantity 1 at that amount', () => {
    expect(text(quantityAndPrice({ amount: dec('24.00') }))).toEqual({ quantity: '1', unitPrice: '24' });
  });

  it('given a quantity but no unit price, then the price is amount ÷ quantity, exact', () => {
    expect(text(quantityAndPrice({ amount: dec('47.97'), quantity: dec(3) }))).toEqual({
      quantity: '3',
      unitPrice: '15.99',
    });
  });

  it('given a unit price but no quantity, then the quantity is amount ÷ price', () => {
    expect(text(quantityAndPrice({ amount: dec('50'), unitPrice: dec('12.5') }))).toEqual({
      quantity: '4',
      unitPrice: '12.5',
    });
  });

  it('given a zero price and no quantity, or a zero quantity and no price, then 1 and 0 (no division by zero)', () => {
    expect(text(quantityAndPrice({ amount: dec(0), unitPrice: dec(0) }))).toEqual({ quantity: '1', unitPrice: '0' });
    expect(text(quantityAndPrice({ amount: dec(0), quantity: dec(0) }))).toEqual({ quantity: '0', unitPrice: '0' });
  });

  it('given both stated, then both as stated (the caller checks them against the amount)', () => {
    expect(text(quantityAndPrice({ amount: dec('100'), quantity: dec(2), unitPrice: dec('49.99') }))).toEqual({
      quantity: '2',
      unitPrice: '49.99',
    });
  });
});
