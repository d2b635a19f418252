import { describe, expect, it } from 'vitest';
import { toInvoice } from '../../../../connectors/zoho-books/map/invoice.js';
import { invoiceOf, mapContext, variant } from '../fixtures.js';

describe('document amounts: entity discount, tax-inclusive documents (map/totals.ts)', () => {
  it('given an entity-level discount after tax, then tax is on the undiscounted lines and the discount is post-tax', () => {
    const r = toInvoice(
      variant('invoice-entity-discount-before-tax', 'invoice', (i) => {
        i.is_discount_before_tax = false;
        // Tax on 10000 and 999.99: 900 + 90.00 (89.9991) per component.
        i.taxes = [
          { tax_name: 'CGST9', tax_amount: 990 },
          { tax_name: 'SGST9', tax_amount: 990 },
        ];
        i.tax_total = 1980;
        i.roundoff_value = -0.49;
        i.total = 12129;
        i.balance = 12129;
      }),
      mapContext(),
    );
    const inv = invoiceOf(r);
    expect(inv.discount).toEqual({ amount: 1100, percentage: 10, isPostTax: true });
    expect(inv.lineItems?.map((l) => l.tax?.total)).toEqual([1800, 180]);
  });

  it('given a tax-inclusive invoice, then it is UNSUPPORTED rather than mapped with wrong amounts', () => {
    expect(
      toInvoice(
        variant('invoice-intra-state', 'invoice', (i) => (i.is_inclusive_tax = true)),
        mapContext(),
      ),
    ).toMatchObject({ ok: false, reason: 'UNSUPPORTED' });
  });
});
