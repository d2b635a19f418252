import { describe, expect, it } from 'vitest';
import { fieldDigest } from '../../../jobs/reconcile/field-digest.js';

describe('field digest', () => {
  it('given fields digested by earlier releases, then the digests are exactly those stored in their ledgers', () => {
    // Produced by the first implementation (nulls removed by a copy, then contentHash); a change would
    // make reconciliation report every record's object fields as differing from what was sent.
    const tax = {
      total: 180.09,
      gstTax: { cgst: 90.045, igst: null, note: undefined, parts: [null, { a: null, b: 1 }, undefined] },
      '10': 'x',
      '2': null,
    };
    expect(fieldDigest(tax)).toBe('b6858a416f27ded3785b1d2c5ead43a3');
    expect(fieldDigest([{ itemName: 'Seeds', quantity: 12, hsn: null }])).toBe('2f7f55a0de9f8eeafbe8ec2efbb11eb4');
    expect(fieldDigest([])).toBe('4f53cda18c2baa0c0354bb5f9a3ecbe5');
    expect(fieldDigest(null)).toBe('74234e98afe7498fb5daf1f36ac2d78a');
  });

  it('given a field printed with null where nothing was sent, then it digests like the field without it; an array keeps its nulls', () => {
    expect(fieldDigest({ a: 1, b: null })).toBe(fieldDigest({ a: 1 }));
    expect(fieldDigest({ b: { c: null, d: 2 }, a: 1 })).toBe(fieldDigest({ a: 1, b: { d: 2 } }));
    expect(fieldDigest([1, null])).not.toBe(fieldDigest([1]));
  });
});
