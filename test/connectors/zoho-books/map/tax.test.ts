import { describe, expect, it } from 'vitest';
import { toInvoice } from '../../../../connectors/zoho-books/map/invoice.js';
import { invoiceOf, lookups, mapContext, variant } from '../fixtures.js';

describe('Zoho taxes → billing tax; place of supply (map/tax.ts)', () => {
  it("given a line whose tax_id the settings do not have, then INVALID_FIELD on that line's tax_id", () => {
    const r = toInvoice(
      variant('invoice-intra-state', 'invoice', (i) => (i.line_items[1].tax_id = '999')),
      mapContext(),
    );
    expect(r).toMatchObject({ ok: false, reason: 'INVALID_FIELD', field: 'line_items.1.tax_id' });
  });

  it('given a 28 % + cess 12 % group, then the tax has GST and cess parts', () => {
    const l = lookups();
    l.taxes['401'] = {
      id: '401',
      name: 'CGST14',
      percentage: '14',
      isGroup: false,
      specificType: 'cgst',
      components: ['401'],
    };
    l.taxes['402'] = {
      id: '402',
      name: 'SGST14',
      percentage: '14',
      isGroup: false,
      specificType: 'sgst',
      components: ['402'],
    };
    l.taxes['403'] = {
      id: '403',
      name: 'Cess12',
      percentage: '12',
      isGroup: false,
      specificType: 'cess',
      components: ['403'],
    };
    l.taxes['404'] = {
      id: '404',
      name: 'GST28+Cess12',
      percentage: '40',
      isGroup: true,
      specificType: '',
      components: ['401', '402', '403'],
    };
    const r = toInvoice(
      variant('invoice-void', 'invoice', (i) => {
        i.status = 'sent';
        i.line_items[0].tax_id = '404';
        i.taxes = [
          { tax_name: 'CGST14', tax_amount: 420 },
          { tax_name: 'SGST14', tax_amount: 420 },
          { tax_name: 'Cess12', tax_amount: 360 },
        ];
        i.tax_total = 1200;
        i.total = 4200;
        i.balance = 4200;
      }),
      mapContext({ lookups: l }),
    );
    expect(invoiceOf(r).invoiceTax).toMatchObject({
      total: 1200,
      cgst: 420,
      sgst: 420,
      cessTax: { cess: 360, cessRate: 12 },
      gstTax: { totalGst: 840, totalGstRate: 28 },
    });
    expect(invoiceOf(r).lineItems?.[0]?.lineItemDetails?.taxRate).toBe(40);
  });

  it('given a taxed shipping charge, then its tax is in the invoice tax but on no line', () => {
    const r = toInvoice(
      variant('invoice-intra-state', 'invoice', (i) => {
        i.shipping_charge = 100;
        i.shipping_charge_tax_id = '1890000000000321';
        i.taxes = [
          { tax_name: 'CGST9', tax_amount: 6759 },
          { tax_name: 'SGST9', tax_amount: 6759 },
        ];
        i.tax_total = 13518;
        i.total = 88618;
        i.balance = 48618;
      }),
      mapContext(),
    );
    const inv = invoiceOf(r);
    expect(inv.invoiceTax).toMatchObject({ total: 13518, cgst: 6759, sgst: 6759 });
    expect(inv.lineItems?.map((l) => l.tax?.total)).toEqual([9000, 4500]);
    expect(inv.createInvoiceAdjustments).toEqual([{ name: 'Shipping charge', amount: 100, isPostTax: true }]);
  });

  it("given IGST on an intra-state supply, then it maps (Zoho's tax settings decide) with a warning", () => {
    const r = toInvoice(
      variant('invoice-inter-state-igst', 'invoice', (i) => (i.place_of_supply = 'KA')),
      mapContext(),
    );
    expect(r.ok && r.warnings).toEqual(['IGST charged on an intra-state supply (KA)']);
  });

  it('given a place of supply that is no Indian state, then INVALID_FIELD', () => {
    expect(
      toInvoice(
        variant('invoice-intra-state', 'invoice', (i) => (i.place_of_supply = 'XX')),
        mapContext(),
      ),
    ).toMatchObject({ ok: false, reason: 'INVALID_FIELD', field: 'place_of_supply' });
  });
});
