import { describe, expect, it } from 'vitest';
import type { MapContext } from '../../../../src/connector/types.js';
import { toInvoice } from '../../../../connectors/xero/map/invoice.js';
import { InvoiceUpsertBody } from '../../../../src/billing/schemas/invoice.js';
import { australiaLookups, indiaLookups, invoiceRecord } from '../fixtures.js';

const inIndia = (baseCurrency = 'INR'): MapContext => ({
  connectionId: 'xero-in',
  originSource: 'EXTERNAL_SYSTEM_C',
  baseCurrency,
  lookups: indiaLookups,
});
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

describe('Xero invoice mapping', () => {
  it('given a USD invoice of an AUD organisation, partly paid, and a billing company in AUD, then the rate is inverted and the buyer takes the organisation’s country and currency', () => {
    const invoice = invoiceOf(toInvoice(invoiceRecord('invoice-usd-in-aud-org-part-paid.json'), inAustralia('AUD')));
    // CurrencyRate 0.65 = USD per AUD → 1 / 0.65 AUD per USD, 10 significant digits.
    expect(invoice.exchangeRate).toBe(1.538461538);
    expect(invoice).toMatchObject({ invoiceCurrency: 'USD', invoiceTotal: 2400, invoicePaidAmount: 1000 });
    // The contact summary names no country or currency: the organisation's (AU, AUD), never billing's IN/INR.
    expect(invoice.customerDetails).toMatchObject({ countryCode: 'AU', currency: 'AUD' });
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

  it('given a VOIDED invoice, then it maps with its totals and sourceStatus VOIDED, and its record is not a delete', () => {
    const record = invoiceRecord('invoice-voided.json');
    expect(record.status).toBe('VOIDED');
    expect(record.deleted).toBeUndefined();
    const invoice = invoiceOf(toInvoice(record, inIndia()));
    expect(invoice).toMatchObject({
      invoiceSubtotal: 5000,
      invoiceTotal: 5900,
      invoicePaidAmount: 0,
      invoiceAdjustedAmount: 0,
    });
    expect(invoice.metaData?.sourceStatus).toBe('VOIDED');
  });

  it('given a DELETED draft, then its record is a delete with status DELETED, and if mapped its status says DELETED (IGST single component)', () => {
    const record = invoiceRecord('invoice-deleted-draft.json');
    expect(record).toMatchObject({
      id: '11111111-aaaa-4bbb-8ccc-000000000105',
      status: 'DELETED',
      deleted: true,
      version: '2025-03-06T09:15:30.250Z',
    });
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
    expect(toInvoice({ ...record, raw: { ...record.raw, Type: 'ACCPAY' } }, inIndia())).toMatchObject({
      ok: false,
      reason: 'UNSUPPORTED',
    });
    expect(toInvoice({ ...record, raw: { ...record.raw, CurrencyRate: undefined } }, inIndia())).toMatchObject({
      ok: false,
      reason: 'FX_UNDERIVABLE',
    });
    expect(toInvoice({ ...record, raw: { ...record.raw, CurrencyRate: 1 } }, inIndia())).toMatchObject({
      ok: false,
      reason: 'FX_SUSPECT',
    });
    expect(toInvoice(record, { ...inIndia(), lookups: {} })).toMatchObject({ ok: false, reason: 'FX_UNDERIVABLE' });
  });

  it('given a summary record without LineItems (a list read without page), then MISSING_FIELD', () => {
    const record = invoiceRecord('invoice-voided.json');
    const { LineItems: _omit, ...summary } = record.raw;
    expect(toInvoice({ ...record, raw: summary }, inIndia())).toMatchObject({
      ok: false,
      reason: 'MISSING_FIELD',
      field: 'LineItems',
    });
  });
});

describe('Xero line discounts: Xero’s arithmetic wins', () => {
  it('given a line of 1 × 13.30 at DiscountRate 15 whose LineAmount Xero computed as 11.31, then the line discount is 1.99 (13.30 − 11.31), not 15 % of 13.30 rounded alone (2.00)', () => {
    const record = invoiceRecord('invoice-notax.json');
    const raw = structuredClone(record.raw) as unknown as Record<string, unknown> & {
      LineItems: Array<Record<string, unknown>>;
    };
    // https://developer.xero.com/documentation/api/accounting/invoices (LineItems: DiscountRate, LineAmount)
    raw.LineItems = [
      { ...raw.LineItems[0], Quantity: 1, UnitAmount: 13.3, DiscountRate: 15, LineAmount: 11.31, TaxAmount: 0 },
    ];
    Object.assign(raw, { SubTotal: 11.31, TotalTax: 0, Total: 11.31, AmountDue: 11.31, AmountPaid: 0 });
    const invoice = invoiceOf(toInvoice({ ...record, raw: raw as unknown as typeof record.raw }, inIndia()));
    expect(invoice.lineItems![0]).toMatchObject({
      subTotal: 11.31,
      total: 11.31,
      discount: { amount: 1.99, percentage: 15, isPostTax: false },
    });
    expect(invoice.invoiceTotal).toBe(11.31);
  });

  it('given the same line whose LineAmount does not add up to the invoice SubTotal, then the record is quarantined as AMOUNTS_INCONSISTENT', () => {
    const record = invoiceRecord('invoice-notax.json');
    const raw = structuredClone(record.raw) as unknown as Record<string, unknown> & {
      LineItems: Array<Record<string, unknown>>;
    };
    raw.LineItems = [
      { ...raw.LineItems[0], Quantity: 1, UnitAmount: 13.3, DiscountRate: 15, LineAmount: 11.31, TaxAmount: 0 },
    ];
    Object.assign(raw, { SubTotal: 11.25, TotalTax: 0, Total: 11.25, AmountDue: 11.25, AmountPaid: 0 });
    const result = toInvoice({ ...record, raw: raw as unknown as typeof record.raw }, inIndia());
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toBe('AMOUNTS_INCONSISTENT');
  });
});

describe('Xero invoice → referenceText, promiseToPayDate and tags', () => {
  type Raw = Record<string, any>;
  /** invoice-inclusive-gst.json changed by `edit`. */
  const variant = (edit: (raw: Raw) => void) => {
    const record = invoiceRecord('invoice-inclusive-gst.json');
    const raw = structuredClone(record.raw) as Raw;
    edit(raw);
    return toInvoice({ ...record, raw: raw as never }, inIndia());
  };

  it('given lines tracked under two categories, one with different options on different lines, then tags has one key per category, the options distinct and in line order', () => {
    const invoice = invoiceOf(variant(() => {}));
    expect(invoice.tags).toEqual({ Region: 'South, West', 'Sales channel': 'Partner' });
    expect(invoice.referenceText).toBe('PO-5521');
    expect(invoice.promiseToPayDate).toEqual({ date: '2025-04-10' });
  });

  it('given no line tracked, no Reference and no ExpectedPaymentDate, then the body has no tags, referenceText or promiseToPayDate', () => {
    const invoice = invoiceOf(
      variant((raw) => {
        for (const line of raw.LineItems) line.Tracking = [];
        raw.Reference = '  ';
        delete raw.ExpectedPaymentDate;
      }),
    );
    expect(invoice).not.toHaveProperty('tags');
    expect(invoice).not.toHaveProperty('referenceText');
    expect(invoice).not.toHaveProperty('promiseToPayDate');
  });

  it('given a tracking entry without an option, then that category is left out rather than sent empty', () => {
    const invoice = invoiceOf(
      variant((raw) => {
        raw.LineItems[0].Tracking = [{ Name: 'Region', Option: '' }];
        raw.LineItems[1].Tracking = [];
        raw.LineItems[2].Tracking = [];
      }),
    );
    expect(invoice).not.toHaveProperty('tags');
  });

  it('given an ExpectedPaymentDate that is not a date, then INVALID_FIELD names it', () => {
    const r = variant((raw) => {
      raw.ExpectedPaymentDate = 'soon';
    });
    expect(r).toMatchObject({ ok: false, reason: 'INVALID_FIELD' });
    if (!r.ok) expect(r.message).toContain('ExpectedPaymentDate');
  });
});

describe('Xero invoice → a connection fields mapping on tracking categories', () => {
  // invoice-inclusive-gst.json: Xero's invoice shape (https://developer.xero.com/documentation/api/accounting/invoices)
  // with LineItems[].Tracking {Name, Option} under "Region" and "Sales channel".
  it('given a rule naming a tracking category, then its options go to the metaData key it names and the other category stays a tag', () => {
    const fields = [{ from: { tracking: 'Region' }, to: { metaData: 'region' } }];
    const invoice = invoiceOf(toInvoice(invoiceRecord('invoice-inclusive-gst.json'), { ...inIndia(), fields }));
    expect(invoice.tags).toEqual({ 'Sales channel': 'Partner' });
    expect(invoice.metaData).toMatchObject({ sourceSystem: 'xero', region: 'South, West' });
  });

  it('given a rule renaming a category as a tag, then the tag has the new key', () => {
    const fields = [{ from: { tracking: 'Sales channel' }, to: { tag: 'channel' } }];
    const invoice = invoiceOf(toInvoice(invoiceRecord('invoice-inclusive-gst.json'), { ...inIndia(), fields }));
    expect(invoice.tags).toEqual({ Region: 'South, West', channel: 'Partner' });
  });
});
