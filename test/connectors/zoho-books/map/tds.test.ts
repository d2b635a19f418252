import { describe, expect, it } from 'vitest';
import { toInvoice } from '../../../../connectors/zoho-books/map/invoice.js';
import { invoiceOf, mapContext, record, variant } from '../fixtures.js';

/**
 * TDS withheld by the customer (map/tds.ts). Fixture: test/fixtures/zoho-books/invoice-einvoiced-tds.json —
 * total 1,18,000, payment_made 50,000, tax_amount_withheld 10,000 (10 % of the 1,00,000 before GST),
 * balance 58,000: Zoho counts the withheld TDS as settled.
 */
describe('TDS withheld (map/tds.ts)', () => {
  it("given an invoice whose customer withheld TDS, when mapped, then it is not quarantined and billing's outstanding equals Zoho's balance to the paisa", () => {
    const result = toInvoice(record('invoice-einvoiced-tds', 'invoice'), mapContext());
    const inv = invoiceOf(result);
    const outstanding = inv.invoiceTotal - inv.invoicePaidAmount - inv.invoiceAdjustedAmount;
    expect(outstanding).toBe(58000);
    expect(inv.invoicePaidAmount).toBe(50000);
    expect(inv.invoiceAdjustedAmount).toBe(10000);
    expect(inv.invoiceTax?.tdsTax).toEqual({ tds: 10000, tdsRate: 10 });
    expect(inv.invoiceTax?.tds).toBe(10000);
    expect(inv.invoiceTax?.total).toBe(18000);
    expect(inv.metaData?.taxAmountWithheld).toBe(10000);
  });

  it('given paise in the withheld TDS, then the outstanding still equals the balance exactly', () => {
    const r = variant('invoice-einvoiced-tds', 'invoice', (i) => {
      i.tax_amount_withheld = 9999.99;
      i.balance = 58000.01;
    });
    const inv = invoiceOf(toInvoice(r, mapContext()));
    expect(Math.round((inv.invoiceTotal - inv.invoicePaidAmount - inv.invoiceAdjustedAmount) * 100)).toBe(5800001);
    expect(inv.invoiceAdjustedAmount).toBe(9999.99);
  });

  it('given a balance that the withheld TDS does not explain, then AMOUNTS_INCONSISTENT naming the TDS', () => {
    const r = variant('invoice-einvoiced-tds', 'invoice', (i) => (i.balance = 68000));
    const result = toInvoice(r, mapContext());
    expect(result).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT', field: 'balance' });
    expect(result.ok ? '' : result.message).toContain('TDS withheld 10000.00');
  });

  it('given no stated TDS rate (no line rate, no tds_summary), then the effective rate on sub_total is sent with a warning', () => {
    const r = variant('invoice-einvoiced-tds', 'invoice', (i) => {
      delete i.line_items[0].tds_tax_percentage;
      delete i.line_items[0].tds_tax_amount;
      delete i.tds_summary;
      i.tax_amount_withheld = 2000;
      i.balance = 66000;
    });
    const result = toInvoice(r, mapContext());
    expect(invoiceOf(result).invoiceTax?.tdsTax).toEqual({ tds: 2000, tdsRate: 2 });
    expect(result.ok && result.warnings?.some((w) => w.includes('effective rate 2 %'))).toBe(true);
  });

  it("given a line's own TDS, then the line's tax carries it beside its GST and its total is unchanged", () => {
    const inv = invoiceOf(toInvoice(record('invoice-einvoiced-tds', 'invoice'), mapContext()));
    expect(inv.lineItems?.[0]).toMatchObject({ subTotal: 100000, total: 118000, tax: { total: 18000, tds: 10000 } });
    expect(inv.lineItems?.[0]?.tax?.tdsTax).toEqual({ tds: 10000, tdsRate: 10 });
  });
});
