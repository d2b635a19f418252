import { describe, expect, it } from 'vitest';
import { toCreditNote } from '../../../../connectors/zoho-books/map/credit-note.js';
import { toInvoice } from '../../../../connectors/zoho-books/map/invoice.js';
import type { CreditNoteInput } from '../../../../src/billing/schemas/credit-note.js';
import { fixture, invoiceOf, mapContext, record, variant } from '../fixtures.js';

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
    expect(invoice.lineItems![0]).toMatchObject({
      subTotal: 8.42,
      total: 9.94,
      quantity: 3,
      discount: { amount: 1.48, percentage: 15, isPostTax: false },
    });
    expect(invoice.invoiceTotal).toBe(9.94);
  });

  it('given the same line whose item_total does not add up to the invoice sub_total, then the record is quarantined as AMOUNTS_INCONSISTENT', () => {
    expect(toInvoice(discounted(8.42, 8.4, 9.92), mapContext())).toMatchObject({
      ok: false,
      reason: 'AMOUNTS_INCONSISTENT',
    });
  });

  it('given an item_total two minor units away from 15 % off 9.90, then the line is quarantined as AMOUNTS_INCONSISTENT', () => {
    expect(toInvoice(discounted(8.44, 8.44, 9.96), mapContext())).toMatchObject({
      ok: false,
      reason: 'AMOUNTS_INCONSISTENT',
      field: 'line_items.0.item_total',
    });
  });
});

describe('text lines and amount-only lines (src/mapping/text-line.ts, quantity-and-price.ts)', () => {
  const expected = () => fixture<CreditNoteInput>('credit-note-two-invoices.expected');
  const creditNoteOf = (result: ReturnType<typeof toCreditNote>) => {
    if (!result.ok || result.value.kind !== 'credit-note')
      throw new Error(result.ok ? 'not a credit note' : `${result.reason}: ${result.message}`);
    return result.value.creditNote;
  };

  it('given a credit note whose first line has no item and no money (quantity 1, rate 0, item_total 0), when mapped, then it syncs: the text is a zero line in its place and every amount is the same as without it', () => {
    const creditNote = creditNoteOf(toCreditNote(record('credit-note-text-line', 'creditnote'), mapContext()));
    const {
      creditNoteSubtotal,
      creditNoteTax,
      creditNoteTotal,
      creditNoteRemainingAmount,
      appliedToInvoices,
      lineItems,
    } = expected();
    expect(creditNote).toMatchObject({
      creditNoteSubtotal,
      creditNoteTax,
      creditNoteTotal,
      creditNoteRemainingAmount,
      appliedToInvoices,
    });
    expect(creditNote.lineItems).toEqual([
      {
        lineItemDetails: {
          name: "Manuals returned unopened; credit agreed with the customer's purchasing team",
          taxRate: 0,
          pricePerItem: 0,
          lineItemId: '1890000000044109',
        },
        quantity: 0,
        subTotal: 0,
        total: 0,
      },
      ...lineItems!,
    ]);
  });

  it('given the text line with no rate and no item_total at all, when mapped, then the same lines', () => {
    const bare = variant('credit-note-text-line', 'creditnote', (c) => {
      delete c.line_items[0].rate;
      delete c.line_items[0].item_total;
    });
    expect(creditNoteOf(toCreditNote(bare, mapContext())).lineItems).toEqual(
      creditNoteOf(toCreditNote(record('credit-note-text-line', 'creditnote'), mapContext())).lineItems,
    );
  });

  it('given a line with an item_total but no quantity or rate (a description with an amount), when mapped, then it is quantity 1 at that amount', () => {
    const r = toInvoice(
      variant('invoice-intra-state', 'invoice', (i) => {
        delete i.line_items[1].quantity;
        delete i.line_items[1].rate;
      }),
      mapContext(),
    );
    const original = invoiceOf(toInvoice(record('invoice-intra-state', 'invoice'), mapContext()));
    const amount = original.lineItems![1]!.subTotal;
    expect(original.lineItems![1]!.quantity).not.toBe(1);
    expect(invoiceOf(r).lineItems![1]).toMatchObject({
      quantity: 1,
      subTotal: amount,
      lineItemDetails: { pricePerItem: amount },
    });
    expect(invoiceOf(r).invoiceTotal).toBe(original.invoiceTotal);
  });

  it('given a line that names an item at zero (item_id, quantity 2, rate 0, item_total 0), when mapped, then it stays a priced line with its quantity', () => {
    const r = toCreditNote(
      variant('credit-note-text-line', 'creditnote', (c) =>
        Object.assign(c.line_items[0], { item_id: '1890000000011099', name: 'Sample pack', quantity: 2 }),
      ),
      mapContext(),
    );
    expect(creditNoteOf(r).lineItems![0]).toMatchObject({
      quantity: 2,
      subTotal: 0,
      total: 0,
      lineItemDetails: { name: 'Sample pack', erpId: '1890000000011099' },
    });
  });

  it('given a line with an item but no item_total, when mapped, then MISSING_FIELD as before (a priced line Zoho always totals)', () => {
    const r = toCreditNote(
      variant('credit-note-text-line', 'creditnote', (c) => {
        c.line_items[1].item_total = undefined;
      }),
      mapContext(),
    );
    expect(r).toMatchObject({ ok: false, reason: 'MISSING_FIELD', field: 'line_items.1.item_total' });
  });
});
