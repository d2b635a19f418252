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

describe('entity discount given only as a percentage: Zoho’s arithmetic wins (map/totals.ts)', () => {
  // https://www.zoho.com/books/api/v3/invoices/ (discount, discount_amount, sub_total, tax_total, total).
  // One line 3 × 3.30 = 9.90, GST 18 % on it: CGST 9 % = 0.891 → 0.89, SGST the same, tax_total 1.78.
  // 15 % after tax: Zoho's total is 9.90 + 1.78 − 1.485 = 10.195 → 10.20, so it took off 1.48
  // (9.90 + 1.78 − 10.20); 15 % of 9.90 rounded on its own would be 1.49.
  const percentOnly = (total: number) =>
    variant('invoice-entity-discount-before-tax', 'invoice', (i) => {
      i.line_items = [{ ...i.line_items[0], quantity: 3, rate: 3.3, item_total: 9.9 }];
      i.taxes = [
        { tax_name: 'CGST9', tax_amount: 0.89 },
        { tax_name: 'SGST9', tax_amount: 0.89 },
      ];
      delete i.discount_amount;
      delete i.discount_total;
      Object.assign(i, {
        discount: '15%',
        discount_percent: 15,
        is_discount_before_tax: false,
        sub_total: 9.9,
        tax_total: 1.78,
      });
      Object.assign(i, {
        shipping_charge: 0,
        adjustment: 0,
        roundoff_value: 0,
        total,
        balance: total,
        bcy_total: total,
      });
    });

  it('given a 15 % discount with no discount_amount and Zoho’s total 10.20, then the discount is 1.48 (what the total leaves), not 15 % of 9.90 rounded alone (1.49)', () => {
    const invoice = invoiceOf(toInvoice(percentOnly(10.2), mapContext()));
    expect(invoice.discount).toEqual({ amount: 1.48, percentage: 15, isPostTax: true });
    expect(invoice.invoiceSubtotal).toBe(9.9);
    expect(invoice.invoiceTotal).toBe(10.2);
  });

  it('given a total two minor units away from 15 % off, then the record is quarantined as AMOUNTS_INCONSISTENT', () => {
    expect(toInvoice(percentOnly(10.22), mapContext())).toMatchObject({
      ok: false,
      reason: 'AMOUNTS_INCONSISTENT',
      field: 'total',
    });
  });
});
