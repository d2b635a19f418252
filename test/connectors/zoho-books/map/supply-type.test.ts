import { describe, expect, it } from 'vitest';
import { toCreditNote } from '../../../../connectors/zoho-books/map/credit-note.js';
import { toInvoice } from '../../../../connectors/zoho-books/map/invoice.js';
import { invoiceOf, mapContext, record, variant } from '../fixtures.js';

/** Supply type, exports and SEZ (map/supply-type.ts, map/tax.ts) and reverse charge (map/totals.ts). */
describe('GST supply type, exports and reverse charge', () => {
  it.each([
    ['business_sez', true, 'SEZWP'],
    ['business_sez', false, 'SEZWOP'],
    ['overseas', true, 'EXPWP'],
    ['overseas', false, 'EXPWOP'],
    ['deemed_export', true, 'DEXP'],
    ['business_gst', true, 'B2B'],
    ['consumer', true, 'B2C'],
  ])('given gst_treatment %s (IGST charged: %s), then metaData.supplyType is %s', (treatment, igst, expected) => {
    const r = variant('invoice-inter-state-igst', 'invoice', (i) => {
      i.gst_treatment = treatment;
      if (!igst) {
        for (const l of i.line_items) delete l.tax_id;
        i.taxes = [];
        i.tax_total = 0;
        i.total = i.balance = i.bcy_total = 4703.67;
      }
    });
    expect(invoiceOf(toInvoice(r, mapContext())).metaData?.supplyType).toBe(expected);
  });

  it('given an export without place_of_supply, then supplyStateCode is 96 (outside India) and no placeOfSupply', () => {
    const r = variant('invoice-inter-state-igst', 'invoice', (i) => {
      i.gst_treatment = 'overseas';
      i.place_of_supply = '';
    });
    const inv = invoiceOf(toInvoice(r, mapContext()));
    expect(inv.supplyStateCode).toBe('96');
    expect(inv.placeOfSupply).toBeUndefined();
  });

  it('given reverse charge, then the invoice collects no tax and the tax the buyer pays travels exactly in metaData', () => {
    const inv = invoiceOf(toInvoice(record('invoice-reverse-charge', 'invoice'), mapContext()));
    expect(inv.invoiceTax?.total).toBe(0);
    expect(inv.invoiceTotal).toBe(20000.01);
    expect(inv.lineItems?.[0]?.tax).toBeUndefined();
    expect(inv.metaData).toMatchObject({
      reverseCharge: true,
      reverseChargeTaxTotal: 1000,
      reverseChargeCgst: 500,
      reverseChargeSgst: 500,
    });
  });

  it("given a reverse_charge_tax_total the lines' GST does not explain, then AMOUNTS_INCONSISTENT", () => {
    const r = variant('invoice-reverse-charge', 'invoice', (i) => (i.reverse_charge_tax_total = 1800));
    expect(toInvoice(r, mapContext())).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT' });
  });
});

describe('reverse-charge credit notes (map/credit-note.ts)', () => {
  it('given a credit note under reverse charge, then it collects no tax and metaData says what the buyer pays', () => {
    let tax = 0;
    const r = variant('credit-note-two-invoices', 'creditnote', (c) => {
      tax = c.tax_total;
      c.is_reverse_charge_applied = true;
      c.reverse_charge_tax_total = tax;
      c.taxes = [];
      c.tax_total = 0;
      c.total = Math.round((c.total - tax) * 100) / 100;
      c.balance = c.total;
      c.bcy_total = c.total;
      for (const app of c.invoices ?? []) app.amount = 0;
    });
    const result = toCreditNote(r, mapContext());
    if (!result.ok || result.value.kind !== 'credit-note') throw new Error(result.ok ? 'kind' : result.message);
    expect(tax).toBeGreaterThan(0);
    expect(result.value.creditNote.metaData).toMatchObject({ reverseCharge: true, reverseChargeTaxTotal: tax });
  });
});
