import { describe, expect, it } from 'vitest';
import { LineItem } from '../../src/billing/schemas/invoice.js';
import { checkInvoiceTotal, checkLinesSum, dec, isTextLine, textLineItem, ZERO } from '../../src/mapping/index.js';

describe('isTextLine: a line that carries no money and names no item is text', () => {
  it('given a line with nothing but text (every money figure absent), then it is text', () => {
    expect(isTextLine({ namesItem: false })).toBe(true);
  });

  it('given a line whose money figures are all stated as zero (Zoho: quantity 1, rate 0, item_total 0), then it is text', () => {
    expect(isTextLine({ amount: ZERO, unitPrice: ZERO, tax: ZERO, discount: ZERO, namesItem: false })).toBe(true);
  });

  it.each([
    ['an amount', { amount: dec('24.00') }],
    ['a unit price (even at quantity 0)', { unitPrice: dec('50') }],
    ['a tax', { tax: dec('4.00') }],
    ['a discount', { discount: dec('1.50') }],
    ['a negative amount (a credit line)', { amount: dec('-10') }],
  ])('given a line with %s, then it is priced, not text', (_what, money) => {
    expect(isTextLine({ ...money, namesItem: false })).toBe(false);
  });

  it('given a line that names an item at zero (2 × Sample pack @ 0.00), then it is priced: a free item, not text', () => {
    expect(isTextLine({ amount: ZERO, unitPrice: ZERO, namesItem: true })).toBe(false);
  });
});

describe('textLineItem: how a text line is carried', () => {
  it('given text, then a schema-valid line item named by the text with quantity 0 and no money at all', () => {
    const r = textLineItem('  Goods returned damaged  ', 'LineItems.0', 'abc-1');
    expect(r).toEqual({
      ok: true,
      value: {
        lineItemDetails: { name: 'Goods returned damaged', taxRate: 0, pricePerItem: 0, lineItemId: 'abc-1' },
        quantity: 0,
        subTotal: 0,
        total: 0,
      },
    });
    expect(r.ok && LineItem.parse(r.value)).toEqual(r.ok && r.value);
  });

  it('given blank or missing text, then nothing to carry and a warning naming the line (never the text)', () => {
    for (const text of ['   ', undefined, null]) {
      expect(textLineItem(text, 'Line.3')).toEqual({
        ok: true,
        value: undefined,
        warnings: ['Line.3: a line with neither money nor text; left out'],
      });
    }
  });

  it('given text lines among priced lines, then the lines and totals checks hold unchanged (a text line adds zero)', () => {
    const priced = [dec('100.00'), dec('39.97')];
    const withText = [ZERO, ...priced, ZERO];
    expect(checkLinesSum({ lineSubtotals: withText, subtotal: dec('139.97'), currency: 'GBP' })).toBeUndefined();
    expect(
      checkInvoiceTotal({ subtotal: dec('139.97'), tax: dec('28.00'), total: dec('167.97'), currency: 'GBP' }),
    ).toBeUndefined();
  });
});
