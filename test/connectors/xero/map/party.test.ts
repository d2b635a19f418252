import { describe, expect, it } from 'vitest';
import { taxIdentifiersOf } from '../../../../connectors/xero/map/party.js';

describe('Xero party: tax numbers', () => {
  it.each([
    ['27 AAPCS 1234 F 1 Z 9'.replace(/ /g, ''), ['GSTIN', 'PAN']],
    ['27aapcs1234f1z9', ['GSTIN', 'PAN']],
    ['DE123456789', ['VAT']],
    ['53 004 085 616', ['OTHER']],
    ['', []],
  ])('given TaxNumber %j, then identifiers %j', (taxNumber, types) => {
    expect(taxIdentifiersOf(taxNumber).map((t) => t.type)).toEqual(types);
  });
});
