import { describe, expect, it } from 'vitest';
import { toInvoice } from '../../../../connectors/zoho-books/map/invoice.js';
import { invoiceOf, mapContext, variant } from '../fixtures.js';

describe("line taxes reconciled to Zoho's taxes[] and tax_total (map/reconcile-taxes.ts)", () => {
  it("given Zoho's taxes[] a paisa above the per-line recomputation, then the line taxes are adjusted to add up to Zoho's figure exactly (with a warning)", () => {
    const r = toInvoice(
      variant('invoice-partially-paid', 'invoice', (i) => {
        i.taxes = [
          { tax_name: 'CGST2.5', tax_amount: 25.26 },
          { tax_name: 'SGST2.5', tax_amount: 25.25 },
        ];
        i.tax_total = 50.51;
        i.total = 1060.6;
        i.balance = 250.01;
      }),
      mapContext(),
    );
    const inv = invoiceOf(r);
    expect(inv.invoiceTax?.cgst).toBe(25.26);
    expect(inv.lineItems?.map((l) => l.tax?.cgst)).toEqual([25.01, 0.25]);
    expect(inv.lineItems?.map((l) => l.total)).toEqual([1050, 10.6]);
    expect(r.ok && r.warnings).toEqual(["taxes[] CGST2.5: line taxes adjusted by 0.01 to match Zoho's figure"]);
  });

  it("given taxes[] far from what the lines' rates give, then AMOUNTS_INCONSISTENT names the component", () => {
    const r = toInvoice(
      variant('invoice-intra-state', 'invoice', (i) => {
        i.taxes = [
          { tax_name: 'CGST9', tax_amount: 6850 },
          { tax_name: 'SGST9', tax_amount: 6650 },
        ];
      }),
      mapContext(),
    );
    expect(r).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT', field: 'taxes' });
    expect(!r.ok && r.message).toContain("taxes[] CGST9 is 6850.00 but the lines' tax (9%) comes to 6750.00 INR");
  });

  it('given taxes[] that do not add up to tax_total, then AMOUNTS_INCONSISTENT', () => {
    const r = toInvoice(
      variant('invoice-intra-state', 'invoice', (i) => (i.taxes[0].tax_amount = 6750.01)),
      mapContext(),
    );
    expect(r).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT', field: 'tax' });
  });

  it('given taxes[] names with a "(9%)" suffix, then they still resolve; names the settings do not know fall back to tax_total as a whole', () => {
    const suffixed = toInvoice(
      variant(
        'invoice-intra-state',
        'invoice',
        (i) =>
          (i.taxes = [
            { tax_name: 'CGST9 (9%)', tax_amount: 6750 },
            { tax_name: 'SGST9 (9%)', tax_amount: 6750 },
          ]),
      ),
      mapContext(),
    );
    expect(suffixed.ok && suffixed.warnings).toBeFalsy();
    const unknown = toInvoice(
      variant(
        'invoice-intra-state',
        'invoice',
        (i) =>
          (i.taxes = [
            { tax_name: 'Central tax', tax_amount: 6750 },
            { tax_name: 'State tax', tax_amount: 6750 },
          ]),
      ),
      mapContext(),
    );
    expect(invoiceOf(unknown).invoiceTax).toMatchObject({ total: 13500, cgst: 6750, sgst: 6750 });
    expect(unknown.ok && unknown.warnings).toEqual([
      'taxes[] names do not match the tax settings; line taxes reconciled to tax_total as a whole',
    ]);
  });

  it('given a paisa of tax_total on a document whose lines carry no tax, then AMOUNTS_INCONSISTENT (no line can carry it), never a crash', () => {
    const r = toInvoice(
      variant('invoice-usd-in-inr-org', 'invoice', (i) => (i.tax_total = 0.01)),
      mapContext(),
    );
    expect(r).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT', field: 'taxes' });
    expect(!r.ok && r.message).toContain("tax_total is 0.01 but the lines' tax (no line) comes to 0.00 USD");
  });
});
