import { describe, expect, it } from 'vitest';
import * as mapping from '../../src/mapping/index.js';
import {
  buildTax,
  buyerIdFor,
  checkInvoiceTotal,
  checkLinesSum,
  checkPaidWithinTotal,
  checkTaxSum,
  dec,
  finalizeInvoice,
  invoiceIdFor,
  parseAmount,
  parseCalendarDate,
  parseTimestamp,
  resolveExchangeRate,
  splitIntraState,
  sumMoney,
  toWireNumber,
  type Decimal,
  type MapResult,
} from '../../src/mapping/index.js';

/** Unwraps a success in a test; a failure fails the test with its message. */
function must<T>(r: MapResult<T>): T {
  if (!r.ok) throw new Error(`${r.reason}: ${r.message}`);
  return r.value;
}

describe('the mapping barrel', () => {
  it('given the barrel, then every module is reachable through it', () => {
    for (const name of [
      'parseAmount',
      'roundMoney',
      'toWireNumber',
      'minorUnits',
      'allocateMoney',
      'buildTax',
      'splitIntraState',
      'isIntraState',
      'findIndianState',
      'buildDiscount',
      'resolveExchangeRate',
      'crossCheckExchangeRate',
      'invoiceIdFor',
      'creditNoteIdFor',
      'buyerIdFor',
      'jobIdSafe',
      'parseTimestamp',
      'parseCalendarDate',
      'formatZohoTimestamp',
      'checkInvoiceTotal',
      'finalizeInvoice',
      'finalizeCreditNote',
      'finalizeCustomer',
      'isTextLine',
      'textLineItem',
      'quantityAndPrice',
      'wireAmount',
      'nonBlank',
      'sourceMeta',
      'mapOk',
      'mapFail',
    ]) {
      expect(typeof (mapping as Record<string, unknown>)[name], name).toBe('function');
    }
  });

  it('given the Zoho sample invoice (reference 5.1), when mapped with the core, then the billing schema accepts it', () => {
    const raw = {
      invoice_id: '1890000000043211',
      invoice_number: 'INV-000214',
      date: '2025-02-10',
      due_date: '2025-03-12',
      customer_id: '1890000000021005',
      currency_code: 'INR',
      exchange_rate: 1.0,
      place_of_supply: 'KA',
      line_items: [
        { name: 'Annual SaaS subscription', quantity: 1, rate: 50000.0, tax_percentage: 18, item_total: 50000.0 },
        { name: 'Onboarding services', quantity: 10, rate: 2500.0, tax_percentage: 18, item_total: 25000.0 },
      ],
      sub_total: 75000.0,
      taxes: [{ tax_amount: 6750.0 }, { tax_amount: 6750.0 }],
      tax_total: 13500.0,
      total: 88500.0,
      payment_made: 40000.0,
      last_modified_time: '2025-02-20T16:41:09+0530',
    };
    const currency = raw.currency_code;
    const lines = raw.line_items.map((l) => ({
      l,
      amount: must(parseAmount(l.item_total, 'item_total')),
      tax: splitIntraState(
        must(parseAmount(l.item_total)).times(l.tax_percentage).div(100),
        dec(l.tax_percentage),
        currency,
      ),
    }));
    const subtotal = must(parseAmount(raw.sub_total));
    const taxTotal = must(parseAmount(raw.tax_total));
    const total = must(parseAmount(raw.total));
    const paid = must(parseAmount(raw.payment_made));
    const bad =
      checkLinesSum({ lineSubtotals: lines.map((x) => x.amount), subtotal, currency }) ??
      checkTaxSum({ components: raw.taxes.map((t) => dec(t.tax_amount)), taxTotal, currency }) ??
      checkInvoiceTotal({ subtotal, tax: taxTotal, total, currency }) ??
      checkPaidWithinTotal({ paid, total, currency });
    expect(bad).toBeUndefined();

    const fx = resolveExchangeRate({
      invoiceCurrency: currency,
      baseCurrency: 'INR',
      rate: raw.exchange_rate,
      direction: 'base-per-foreign',
    });
    expect(fx).toEqual({ ok: true });
    const wire = (d: Decimal) => toWireNumber(d, currency);
    const invoiceTax = must(
      buildTax(
        lines.flatMap((x) => x.tax),
        currency,
        'invoiceTax',
      ),
    );

    const result = finalizeInvoice({
      invoiceId: invoiceIdFor('zoho-in', raw.invoice_id),
      erpId: raw.invoice_id,
      invoiceNumber: raw.invoice_number,
      invoiceDate: { date: must(parseCalendarDate(raw.date)) },
      invoiceDueDate: { date: must(parseCalendarDate(raw.due_date)) },
      invoiceSubtotal: wire(subtotal),
      invoiceTax,
      invoiceTotal: wire(total),
      invoicePaidAmount: wire(paid),
      invoiceCurrency: currency,
      placeOfSupply: raw.place_of_supply,
      customerDetails: { buyerId: buyerIdFor('zoho-in', raw.customer_id) },
      lineItems: lines.map(({ l, amount, tax }) => ({
        lineItemDetails: { name: l.name, taxRate: l.tax_percentage, pricePerItem: l.rate },
        quantity: l.quantity,
        subTotal: wire(amount),
        tax: must(buildTax(tax, currency)),
        total: wire(amount.plus(sumMoney(tax.map((t) => t.amount)))),
      })),
      metaData: { sourceUpdatedAt: must(parseTimestamp(raw.last_modified_time)) },
      invoiceOriginSource: 'EXTERNAL_SYSTEM_A',
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.invoiceId).toBe('inv.zoho-in.1890000000043211');
    expect(result.value.invoiceTax?.gstTax).toMatchObject({
      cgst: 6750,
      sgst: 6750,
      totalGst: 13500,
      cgstRate: 9,
      totalGstRate: 18,
    });
    expect(result.value.lineItems?.map((l) => l.total)).toEqual([59000, 29500]);
    expect(result.value.metaData?.sourceUpdatedAt).toBe('2025-02-20T11:11:09.000Z');
    expect(result.value).not.toHaveProperty('exchangeRate');
  });
});
