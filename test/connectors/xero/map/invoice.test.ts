import { describe, expect, it } from 'vitest';
import type { MapContext } from '../../../../src/connector/types.js';
import { toInvoice } from '../../../../connectors/xero/map/invoice.js';
import { InvoiceUpsertBody } from '../../../../src/billing/schemas/invoice.js';
import { australiaLookups, gst, indiaLookups, invoiceRecord } from '../fixtures.js';

const inIndia = (baseCurrency = 'INR'): MapContext => ({ connectionId: 'xero-in', originSource: 'EXTERNAL_SYSTEM_C', baseCurrency, lookups: indiaLookups });
const inAustralia = (baseCurrency: string): MapContext => ({
  connectionId: 'xero-au',
  originSource: 'EXTERNAL_SYSTEM_C',
  baseCurrency,
  lookups: australiaLookups,
});

function invoiceOf(result: ReturnType<typeof toInvoice>) {
  if (!result.ok) throw new Error(`${result.reason}: ${result.message}`);
  const body = result.value;
  if (body.kind !== 'invoice') throw new Error('not an invoice');
  expect(() => InvoiceUpsertBody.parse({ invoice: body.invoice })).not.toThrow();
  return body.invoice;
}

const kaveri = (conn: string) => ({
  buyerId: `cust.${conn}.3c9e1f2a-4b5c-4d6e-8f70-1a2b3c4d5e6f`,
  erpId: '3c9e1f2a-4b5c-4d6e-8f70-1a2b3c4d5e6f',
  isManuallyCreated: false,
  name: 'Kaveri Analytics Pvt Ltd',
  countryCode: 'IN',
  currency: 'INR',
});

describe('Xero invoice mapping', () => {
  it('given a USD invoice of an AUD organisation, partly paid, and a billing company in AUD, then the body is exact and the rate is inverted', () => {
    const invoice = invoiceOf(toInvoice(invoiceRecord('invoice-usd-in-aud-org-part-paid.json'), inAustralia('AUD')));
    expect(invoice).toEqual({
      invoiceId: 'inv.xero-au.0f6a2a8e-3b1d-4f0c-9c55-7e2b1d4c8a10',
      invoiceNumber: 'INV-0214',
      invoiceDate: { date: '2025-02-10' },
      invoiceDueDate: { date: '2025-03-12' },
      invoiceSubtotal: 2400,
      invoiceTax: { total: 0, tds: 0 },
      invoiceAdjustedAmount: 0,
      invoicePaidAmount: 1000,
      discountSplitByWeight: true,
      invoiceTotal: 2400,
      customerDetails: {
        buyerId: 'cust.xero-au.5b3e7c1a-9d2f-4e8b-a6c4-1f0e2d3c4b5a',
        erpId: '5b3e7c1a-9d2f-4e8b-a6c4-1f0e2d3c4b5a',
        isManuallyCreated: false,
        name: 'Bharat Tooling Pvt Ltd',
        // The contact summary names no country or currency: the organisation's (AU, AUD), never billing's IN/INR.
        countryCode: 'AU',
        currency: 'AUD',
      },
      customerName: 'Bharat Tooling Pvt Ltd',
      invoiceCurrency: 'USD',
      // CurrencyRate 0.65 = USD per AUD → 1 / 0.65 AUD per USD, 10 significant digits.
      exchangeRate: 1.538461538,
      lineItems: [
        {
          lineItemDetails: {
            name: 'Annual subscription',
            taxRate: 0,
            pricePerItem: 1200,
            erpId: 'SUB-ANNUAL',
            lineItemId: 'a1c2e3f4-0000-4a4a-8b8b-000000000001',
          },
          quantity: 1,
          subTotal: 1200,
          total: 1200,
          tax: { total: 0, tds: 0 },
        },
        {
          lineItemDetails: {
            name: 'Implementation hours',
            taxRate: 0,
            pricePerItem: 150,
            erpId: 'IMPL-HR',
            lineItemId: 'a1c2e3f4-0000-4a4a-8b8b-000000000002',
          },
          quantity: 8,
          subTotal: 1200,
          total: 1200,
          tax: { total: 0, tds: 0 },
        },
      ],
      erpId: '0f6a2a8e-3b1d-4f0c-9c55-7e2b1d4c8a10',
      invoiceOriginSource: 'EXTERNAL_SYSTEM_C',
      metaData: {
        sourceSystem: 'xero',
        sourceStatus: 'AUTHORISED',
        sourceVersion: '2025-02-12T04:31:10.123Z',
        erpNumber: 'INV-0214',
        reference: 'PO-7781',
        lineAmountTypes: 'Exclusive',
      },
    });
  });

  it('given the same USD invoice of an AUD organisation and a billing company in INR, then FX_UNDERIVABLE: the rate is relative to AUD', () => {
    const r = toInvoice(invoiceRecord('invoice-usd-in-aud-org-part-paid.json'), inAustralia('INR'));
    expect(r).toMatchObject({ ok: false, reason: 'FX_UNDERIVABLE', field: 'CurrencyRate' });
    if (!r.ok) expect(r.message).toContain('AUD');
  });

  it('given a USD invoice in the INR organisation with CurrencyRate 0.011976 (USD per INR), then exchangeRate is 83.500334 INR per USD, never the raw rate', () => {
    const invoice = invoiceOf(toInvoice(invoiceRecord('invoice-usd-in-inr-org.json'), inIndia()));
    expect(invoice.invoiceCurrency).toBe('USD');
    // 1 / 0.011976 = 83.500334001336… → 10 significant digits. Inverted wrongly it would be 0.011976.
    expect(invoice.exchangeRate).toBe(83.500334);
    expect(invoice.exchangeRate).not.toBe(0.011976);
    // 1,200 USD is about 1,00,200 INR, not 14 INR.
    expect(Math.round(invoice.invoiceTotal * invoice.exchangeRate!)).toBe(100200);
    expect(invoice.invoiceTax).toEqual({ total: 0, tds: 0 });
  });

  it('given an Inclusive invoice with CGST/SGST rates, a discounted line, a payment and a credit, then subtotals are derived exactly and tax is split by component rates', () => {
    const invoice = invoiceOf(toInvoice(invoiceRecord('invoice-inclusive-gst.json'), inIndia()));
    expect(invoice).toEqual({
      invoiceId: 'inv.xero-in.11111111-aaaa-4bbb-8ccc-000000000102',
      invoiceNumber: 'INV-0102',
      invoiceDate: { date: '2025-03-05' },
      invoiceDueDate: { date: '2025-04-04' },
      // 11800/1.18 = 10000; 2250 − 107.14 = 2142.86; 100 − 15.25 = 84.75
      invoiceSubtotal: 12227.61,
      invoiceTax: {
        total: 1922.39,
        tds: 0,
        // Mixed 9 % and 2.5 % lines: the effective rate (mapping core), with a warning.
        gstTax: { totalGst: 1922.39, totalGstRate: 15.7218, cgst: 961.2, cgstRate: 7.8609, sgst: 961.19, sgstRate: 7.8609, igst: 0, igstRate: 0 },
        cgst: 961.2,
        sgst: 961.19,
        igst: 0,
      },
      invoiceAdjustedAmount: 150,
      invoicePaidAmount: 5000,
      discountSplitByWeight: true,
      invoiceTotal: 14150,
      customerDetails: kaveri('xero-in'),
      customerName: 'Kaveri Analytics Pvt Ltd',
      invoiceCurrency: 'INR',
      lineItems: [
        {
          lineItemDetails: {
            name: 'Annual subscription',
            taxRate: 18,
            pricePerItem: 11800,
            erpId: 'SUB-ANNUAL',
            lineItemId: 'b7d0c1e2-0000-4a4a-8b8b-000000000101',
          },
          quantity: 1,
          subTotal: 10000,
          total: 11800,
          tax: gst(1800, 900, 900, 9),
        },
        {
          lineItemDetails: {
            name: 'Implementation hours',
            taxRate: 5,
            pricePerItem: 1000,
            erpId: 'IMPL-HR',
            lineItemId: 'b7d0c1e2-0000-4a4a-8b8b-000000000102',
          },
          quantity: 2.5,
          subTotal: 2142.86,
          total: 2250,
          tax: gst(107.14, 53.57, 53.57, 2.5),
          // Informational: LineAmount 2250 already has the 10 % off 2500.
          discount: { amount: 250, percentage: 10, isPostTax: false },
        },
        {
          lineItemDetails: { name: 'Sensor hardware kit', taxRate: 18, pricePerItem: 100, erpId: 'HW-KIT', lineItemId: 'b7d0c1e2-0000-4a4a-8b8b-000000000103' },
          quantity: 1,
          subTotal: 84.75,
          total: 100,
          // 15.25 has an odd paisa: CGST takes it.
          tax: gst(15.25, 7.63, 7.62, 9),
        },
      ],
      erpId: '11111111-aaaa-4bbb-8ccc-000000000102',
      invoiceOriginSource: 'EXTERNAL_SYSTEM_C',
      metaData: {
        sourceSystem: 'xero',
        sourceStatus: 'AUTHORISED',
        sourceVersion: '2025-03-06T09:15:30.250Z',
        erpNumber: 'INV-0102',
        reference: 'PO-5521',
        lineAmountTypes: 'Inclusive',
      },
    });
    expect(invoice).not.toHaveProperty('discount');
    expect(invoice).not.toHaveProperty('exchangeRate');
  });

  it('given a NoTax invoice whose Date has no offset and whose due date is only a DateString, then dates are UTC calendar days and there is no tax', () => {
    const invoice = invoiceOf(toInvoice(invoiceRecord('invoice-notax.json'), inIndia()));
    expect(invoice).toEqual({
      invoiceId: 'inv.xero-in.11111111-aaaa-4bbb-8ccc-000000000103',
      invoiceNumber: 'INV-0103',
      invoiceDate: { date: '2025-03-05' },
      invoiceDueDate: { date: '2025-04-04' },
      invoiceSubtotal: 5000.5,
      invoiceTax: { total: 0, tds: 0 },
      invoiceAdjustedAmount: 0,
      invoicePaidAmount: 0,
      discountSplitByWeight: true,
      invoiceTotal: 5000.5,
      customerDetails: kaveri('xero-in'),
      customerName: 'Kaveri Analytics Pvt Ltd',
      invoiceCurrency: 'INR',
      lineItems: [
        {
          lineItemDetails: { name: 'Training session', taxRate: 0, pricePerItem: 5000.5, erpId: 'TRAIN', lineItemId: 'b7d0c1e2-0000-4a4a-8b8b-000000000101' },
          quantity: 1,
          subTotal: 5000.5,
          total: 5000.5,
          tax: { total: 0, tds: 0 },
        },
      ],
      erpId: '11111111-aaaa-4bbb-8ccc-000000000103',
      invoiceOriginSource: 'EXTERNAL_SYSTEM_C',
      metaData: {
        sourceSystem: 'xero',
        sourceStatus: 'AUTHORISED',
        sourceVersion: '2025-03-06T09:15:30.250Z',
        erpNumber: 'INV-0103',
        lineAmountTypes: 'NoTax',
      },
    });
  });

  it('given a VOIDED invoice, then it maps with its totals and sourceStatus VOIDED, and its record is not a delete', () => {
    const record = invoiceRecord('invoice-voided.json');
    expect(record.status).toBe('VOIDED');
    expect(record.deleted).toBeUndefined();
    const invoice = invoiceOf(toInvoice(record, inIndia()));
    expect(invoice).toEqual({
      invoiceId: 'inv.xero-in.11111111-aaaa-4bbb-8ccc-000000000104',
      invoiceNumber: 'INV-0104',
      invoiceDate: { date: '2025-03-05' },
      invoiceDueDate: { date: '2025-04-04' },
      invoiceSubtotal: 5000,
      invoiceTax: gst(900, 450, 450, 9),
      invoiceAdjustedAmount: 0,
      invoicePaidAmount: 0,
      discountSplitByWeight: true,
      invoiceTotal: 5900,
      customerDetails: kaveri('xero-in'),
      customerName: 'Kaveri Analytics Pvt Ltd',
      invoiceCurrency: 'INR',
      lineItems: [
        {
          lineItemDetails: { name: 'Premium support', taxRate: 18, pricePerItem: 2500, erpId: 'SUPPORT', lineItemId: 'b7d0c1e2-0000-4a4a-8b8b-000000000101' },
          quantity: 2,
          subTotal: 5000,
          total: 5900,
          tax: gst(900, 450, 450, 9),
        },
      ],
      erpId: '11111111-aaaa-4bbb-8ccc-000000000104',
      invoiceOriginSource: 'EXTERNAL_SYSTEM_C',
      metaData: {
        sourceSystem: 'xero',
        sourceStatus: 'VOIDED',
        sourceVersion: '2025-03-06T09:15:30.250Z',
        erpNumber: 'INV-0104',
        lineAmountTypes: 'Exclusive',
      },
    });
  });

  it('given a DELETED draft, then its record is a delete with status DELETED, and if mapped its status says DELETED (IGST single component)', () => {
    const record = invoiceRecord('invoice-deleted-draft.json');
    expect(record).toMatchObject({ id: '11111111-aaaa-4bbb-8ccc-000000000105', status: 'DELETED', deleted: true, version: '2025-03-06T09:15:30.250Z' });
    const invoice = invoiceOf(toInvoice(record, inIndia()));
    expect(invoice.metaData).toEqual({
      sourceSystem: 'xero',
      sourceStatus: 'DELETED',
      sourceVersion: '2025-03-06T09:15:30.250Z',
      erpNumber: 'INV-0105',
      lineAmountTypes: 'Exclusive',
    });
    expect(invoice.invoiceTax).toEqual({
      total: 180,
      tds: 0,
      gstTax: { totalGst: 180, totalGstRate: 18, cgst: 0, cgstRate: 0, sgst: 0, sgstRate: 0, igst: 180, igstRate: 18 },
      cgst: 0,
      sgst: 0,
      igst: 180,
    });
  });

  it('given figures that do not add up, then AMOUNTS_INCONSISTENT instead of a body', () => {
    const record = invoiceRecord('invoice-inclusive-gst.json');
    const broken = { ...record, raw: { ...record.raw, Total: 14150.5 } };
    expect(toInvoice(broken, inIndia())).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT', field: 'total' });
    const badDue = { ...record, raw: { ...record.raw, AmountDue: 9150 } };
    expect(toInvoice(badDue, inIndia())).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT', field: 'balance' });
  });

  it('given a bill (ACCPAY), a foreign invoice without a rate, or one at exactly 1, then it is quarantined, never sent at 1:1', () => {
    const record = invoiceRecord('invoice-usd-in-inr-org.json');
    expect(toInvoice({ ...record, raw: { ...record.raw, Type: 'ACCPAY' } }, inIndia())).toMatchObject({ ok: false, reason: 'UNSUPPORTED' });
    expect(toInvoice({ ...record, raw: { ...record.raw, CurrencyRate: undefined } }, inIndia())).toMatchObject({ ok: false, reason: 'FX_UNDERIVABLE' });
    expect(toInvoice({ ...record, raw: { ...record.raw, CurrencyRate: 1 } }, inIndia())).toMatchObject({ ok: false, reason: 'FX_SUSPECT' });
    expect(toInvoice(record, { ...inIndia(), lookups: {} })).toMatchObject({ ok: false, reason: 'FX_UNDERIVABLE' });
  });

  it('given a summary record without LineItems (a list read without page), then MISSING_FIELD', () => {
    const record = invoiceRecord('invoice-voided.json');
    const { LineItems: _omit, ...summary } = record.raw;
    expect(toInvoice({ ...record, raw: summary }, inIndia())).toMatchObject({ ok: false, reason: 'MISSING_FIELD', field: 'LineItems' });
  });
});

describe('Xero line discounts: Xero’s arithmetic wins', () => {
  it('given a line of 1 × 13.30 at DiscountRate 15 whose LineAmount Xero computed as 11.31, then the line discount is 1.99 (13.30 − 11.31), not 15 % of 13.30 rounded alone (2.00)', () => {
    const record = invoiceRecord('invoice-notax.json');
    const raw = structuredClone(record.raw) as unknown as Record<string, unknown> & { LineItems: Array<Record<string, unknown>> };
    // https://developer.xero.com/documentation/api/accounting/invoices (LineItems: DiscountRate, LineAmount)
    raw.LineItems = [{ ...raw.LineItems[0], Quantity: 1, UnitAmount: 13.3, DiscountRate: 15, LineAmount: 11.31, TaxAmount: 0 }];
    Object.assign(raw, { SubTotal: 11.31, TotalTax: 0, Total: 11.31, AmountDue: 11.31, AmountPaid: 0 });
    const invoice = invoiceOf(toInvoice({ ...record, raw: raw as unknown as typeof record.raw }, inIndia()));
    expect(invoice.lineItems![0]).toMatchObject({ subTotal: 11.31, total: 11.31, discount: { amount: 1.99, percentage: 15, isPostTax: false } });
    expect(invoice.invoiceTotal).toBe(11.31);
  });

  it('given the same line whose LineAmount does not add up to the invoice SubTotal, then the record is quarantined as AMOUNTS_INCONSISTENT', () => {
    const record = invoiceRecord('invoice-notax.json');
    const raw = structuredClone(record.raw) as unknown as Record<string, unknown> & { LineItems: Array<Record<string, unknown>> };
    raw.LineItems = [{ ...raw.LineItems[0], Quantity: 1, UnitAmount: 13.3, DiscountRate: 15, LineAmount: 11.31, TaxAmount: 0 }];
    Object.assign(raw, { SubTotal: 11.25, TotalTax: 0, Total: 11.25, AmountDue: 11.25, AmountPaid: 0 });
    const result = toInvoice({ ...record, raw: raw as unknown as typeof record.raw }, inIndia());
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toBe('AMOUNTS_INCONSISTENT');
  });
});
