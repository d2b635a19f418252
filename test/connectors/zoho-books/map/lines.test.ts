import { describe, expect, it } from 'vitest';
import { toInvoice } from '../../../../connectors/zoho-books/map/invoice.js';
import { invoiceOf, mapContext, variant } from '../fixtures.js';

describe('line items (map/lines.ts)', () => {
  it('given a line whose quantity × rate − discount is not its item_total, then AMOUNTS_INCONSISTENT on that line', () => {
    const r = toInvoice(
      variant('invoice-intra-state', 'invoice', (i) => (i.line_items[1].quantity = 11)),
      mapContext(),
    );
    expect(r).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT', field: 'line_items.1.item_total' });
  });
});

describe('line discounts: Zoho’s arithmetic wins (map/lines.ts)', () => {
  // https://www.zoho.com/books/api/v3/invoices/ (line_items: quantity, rate, discount, item_total).
  // 3 × 3.30 = 9.90 at 15 %: Zoho's item_total is 9.90 − 1.485 = 8.415 → 8.42, so Zoho took off 1.48;
  // 15 % of 9.90 rounded on its own would be 1.49. GST 18 % on 8.42: CGST 9 % = 0.7578 → 0.76, SGST the same.
  const discounted = (itemTotal: number, subTotal: number, total: number) =>
    variant('invoice-intra-state', 'invoice', (i) => {
      i.line_items = [{ ...i.line_items[0], quantity: 3, rate: 3.3, discount: '15%', item_total: itemTotal }];
      i.taxes = [
        { tax_name: 'CGST9', tax_amount: 0.76 },
        { tax_name: 'SGST9', tax_amount: 0.76 },
      ];
      Object.assign(i, { sub_total: subTotal, tax_total: 1.52, total, payment_made: 0, balance: total });
      Object.assign(i, { bcy_sub_total: subTotal, bcy_tax_total: 1.52, bcy_total: total });
    });

  it('given 3 × 3.30 at a 15 % discount whose item_total Zoho computed as 8.42, then the line discount is 1.48 (9.90 − 8.42), not 15 % of 9.90 rounded alone (1.49)', () => {
    const invoice = invoiceOf(toInvoice(discounted(8.42, 8.42, 9.94), mapContext()));
    expect(invoice.lineItems![0]).toMatchObject({ subTotal: 8.42, total: 9.94, quantity: 3, discount: { amount: 1.48, percentage: 15, isPostTax: false } });
    expect(invoice.invoiceTotal).toBe(9.94);
  });

  it('given the same line whose item_total does not add up to the invoice sub_total, then the record is quarantined as AMOUNTS_INCONSISTENT', () => {
    expect(toInvoice(discounted(8.42, 8.4, 9.92), mapContext())).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT' });
  });

  it('given an item_total two minor units away from 15 % off 9.90, then the line is quarantined as AMOUNTS_INCONSISTENT', () => {
    expect(toInvoice(discounted(8.44, 8.44, 9.96), mapContext())).toMatchObject({
      ok: false,
      reason: 'AMOUNTS_INCONSISTENT',
      field: 'line_items.0.item_total',
    });
  });
});
