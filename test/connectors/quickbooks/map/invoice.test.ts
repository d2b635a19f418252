import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildLookups } from '../../../../connectors/quickbooks/streams/lookups.js';
import { toInvoice } from '../../../../connectors/quickbooks/map/invoice.js';
import { InvoiceUpsertBody } from '../../../../src/billing/schemas/index.js';
import { fixture, fixtureLookups, gst, mapContext, sourceRecord } from '../fixtures.js';

function mapped(raw: Record<string, unknown>, ctx = mapContext()) {
  const r = toInvoice(sourceRecord(raw), ctx);
  if (!r.ok) throw new Error(`${r.reason}: ${r.message}`);
  if (r.value.kind !== 'invoice') throw new Error('not an invoice');
  // Every body the mapper returns is a valid upsert body.
  expect(InvoiceUpsertBody.safeParse({ invoice: r.value.invoice }).success).toBe(true);
  return { invoice: r.value.invoice, warnings: r.warnings ?? [] };
}

describe('QuickBooks invoice → billing invoice', () => {
  it('given the linked credit memo was not fetched, then its amount stays in the paid amount with a warning', () => {
    const raw = fixture('invoice-credit-applied');
    delete raw._creditMemos;
    const { invoice, warnings } = mapped(raw);
    expect(invoice.invoicePaidAmount).toBe(6180);
    expect(invoice.invoiceAdjustedAmount).toBe(0);
    expect(warnings).toEqual(['credit memo 7: amount applied to this invoice unknown; counted in invoicePaidAmount']);
  });

  it('given TaxRate names that do not say CGST/SGST/IGST, then the supply geography decides: KA→KA pairs become CGST+SGST, KA→MH becomes IGST', () => {
    const lookups = fixtureLookups();
    for (const id of ['7', '8', '27'])
      lookups.taxRates[id] = { name: `Output tax ${id === '27' ? 18 : 9}%`, rate: id === '27' ? '18' : '9' };
    const intra = mapped(
      { ...fixture('invoice-intra-state'), _customer: fixture('customer-registered') },
      mapContext({}, lookups),
    );
    expect(intra.invoice.invoiceTax).toEqual(gst({ cgst: 6750, sgst: 6750, rate: 18 }));
    const inter = mapped(fixture('invoice-inter-state'), mapContext({}, lookups));
    expect(inter.invoice.invoiceTax).toEqual(gst({ igst: 10800, rate: 18 }));
  });

  it('given unnamed rates and no address to place the supply, then the taxes are sent under their own names with a warning', () => {
    const lookups = fixtureLookups();
    for (const id of ['7', '8']) lookups.taxRates[id] = { name: `Output tax ${id}`, rate: '9' };
    const raw = fixture('invoice-intra-state');
    delete raw.BillAddr;
    const { invoice, warnings } = mapped(raw, mapContext({}, lookups));
    expect(invoice.invoiceTax).toEqual({
      total: 13500,
      otherTaxes: [
        { name: 'Output tax 7', genericTax: 6750, genericTaxRate: 9 },
        { name: 'Output tax 8', genericTax: 6750, genericTaxRate: 9 },
      ],
      tds: 0,
    });
    expect(warnings).toContain(
      'place of supply unknown: tax lines whose rate names do not say CGST/SGST/IGST are sent under their own names',
    );
  });
});

describe('QuickBooks invoice → quarantine reasons', () => {
  const reasonOf = (raw: Record<string, unknown>, ctx = mapContext()) => {
    const r = toInvoice(sourceRecord(raw), ctx);
    return r.ok ? 'ok' : r.reason;
  };

  it('given TotalAmt that is not subtotal − discount + tax, then AMOUNTS_INCONSISTENT (never a wrong record)', () => {
    const r = toInvoice(sourceRecord({ ...fixture('invoice-intra-state'), TotalAmt: 88600 }), mapContext());
    expect(r).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT', field: 'total' });
  });

  it('given TaxLines that do not add up to TotalTax, or a line whose Qty × UnitPrice is not its Amount, or a Balance above the total, then AMOUNTS_INCONSISTENT', () => {
    const raw = fixture('invoice-intra-state');
    expect(reasonOf({ ...raw, TxnTaxDetail: { ...(raw.TxnTaxDetail as object), TotalTax: 13600 } })).toBe(
      'AMOUNTS_INCONSISTENT',
    );
    const lines = structuredClone(raw.Line) as Array<Record<string, unknown>>;
    lines[0]!.Amount = 50001;
    expect(reasonOf({ ...raw, Line: lines })).toBe('AMOUNTS_INCONSISTENT');
    expect(reasonOf({ ...raw, Balance: 90000 })).toBe('AMOUNTS_INCONSISTENT');
  });

  it('given a foreign-currency invoice with no ExchangeRate and no HomeTotalAmt, then FX_UNDERIVABLE (never 1:1)', () => {
    const raw = fixture('invoice-usd');
    delete raw.ExchangeRate;
    delete raw.HomeTotalAmt;
    delete raw.HomeBalance;
    expect(reasonOf(raw)).toBe('FX_UNDERIVABLE');
  });

  it('given a foreign invoice at ExchangeRate 1, or a rate that disagrees with HomeTotalAmt, then FX_SUSPECT', () => {
    expect(reasonOf({ ...fixture('invoice-usd'), ExchangeRate: 1, HomeTotalAmt: 2400 })).toBe('FX_SUSPECT');
    expect(reasonOf({ ...fixture('invoice-usd'), ExchangeRate: 0.012011 })).toBe('FX_SUSPECT');
  });

  it('given no ExchangeRate but HomeTotalAmt, then the rate is derived from the totals (with a warning)', () => {
    const raw = fixture('invoice-usd');
    delete raw.ExchangeRate;
    const r = toInvoice(sourceRecord(raw), mapContext());
    expect(r.ok && r.value.kind === 'invoice' && r.value.invoice.exchangeRate).toBe(83.2575);
  });

  it('given a QBO company whose home currency is not the billing base, then its foreign invoices are FX_UNDERIVABLE and its base-currency ones still map', () => {
    const lookups = { ...fixtureLookups(), homeCurrency: 'USD' };
    expect(reasonOf(fixture('invoice-usd'), mapContext({}, lookups))).toBe('FX_UNDERIVABLE');
    expect(reasonOf(fixture('invoice-intra-state'), mapContext({}, lookups))).toBe('ok');
  });

  it('given a deleted record or a malformed one, then a typed reason, not a throw', () => {
    expect(
      toInvoice({ id: '9', version: '2025-01-01T00:00:00.000Z', deleted: true, raw: { Id: '9' } }, mapContext()),
    ).toMatchObject({
      ok: false,
      reason: 'UNSUPPORTED',
    });
    expect(reasonOf({ ...fixture('invoice-intra-state'), Line: 'nope' })).toBe('INVALID_FIELD');
    expect(reasonOf({ ...fixture('invoice-intra-state'), TotalAmt: '1,200.00' })).toBe('INVALID_FIELD');
  });
});

describe('QuickBooks line discounts: QuickBooks’ arithmetic wins', () => {
  // Regions with line discounts put the discounted figure in the line's Amount (SalesItemLineDetail
  // DiscountRate/DiscountAmt, Finance.xsd in https://github.com/intuit/QuickBooks-V3-Java-SDK).
  // 3 × 3.30 = 9.90 at 15 %: QBO's Amount is 9.90 − 1.485 = 8.415 → 8.42, so QBO took off 1.48; 15 % of
  // 9.90 rounded on its own would be 1.49. CGST 9 % and SGST 9 % of 8.42 = 0.7578 → 0.76 each; 8.42 + 1.52 = 9.94.
  const discounted = (line: Record<string, unknown>, subtotal: number, total: number) => {
    const raw = fixture('invoice-intra-state');
    const [first] = structuredClone(raw.Line) as Array<Record<string, any>>;
    first!.Amount = line.Amount;
    first!.SalesItemLineDetail = { ...first!.SalesItemLineDetail, Qty: 3, UnitPrice: 3.3, ...line.detail! };
    const taxLine = (rate: string) => ({
      Amount: 0.76,
      DetailType: 'TaxLineDetail',
      TaxLineDetail: { TaxRateRef: { value: rate }, PercentBased: true, TaxPercent: 9, NetAmountTaxable: subtotal },
    });
    return {
      ...raw,
      Line: [first, { Amount: subtotal, DetailType: 'SubTotalLineDetail', SubTotalLineDetail: {} }],
      TxnTaxDetail: { TotalTax: 1.52, TaxLine: [taxLine('7'), taxLine('8')] },
      TotalAmt: total,
      Balance: total,
      _customer: fixture('customer-registered'),
    };
  };

  it('given 3 × 3.30 at DiscountRate 15 whose Amount QuickBooks computed as 8.42, then the line discount is 1.48 (9.90 − 8.42), not 15 % of 9.90 rounded alone (1.49)', () => {
    const { invoice } = mapped(discounted({ Amount: 8.42, detail: { DiscountRate: 15 } }, 8.42, 9.94));
    expect(invoice.lineItems![0]).toMatchObject({
      subTotal: 8.42,
      total: 9.94,
      quantity: 3,
      discount: { amount: 1.48, percentage: 15, isPostTax: false },
    });
    expect(invoice.invoiceSubtotal).toBe(8.42);
    expect(invoice.invoiceTotal).toBe(9.94);
  });

  it('given a DiscountAmt, then it is the line discount as QuickBooks states it', () => {
    const { invoice } = mapped(discounted({ Amount: 8.42, detail: { DiscountAmt: 1.48 } }, 8.42, 9.94));
    expect(invoice.lineItems![0]).toMatchObject({ subTotal: 8.42, discount: { amount: 1.48, isPostTax: false } });
  });

  it('given a discounted line whose Amount is two minor units away from 15 % off 9.90, or a DiscountAmt that does not leave its Amount, then AMOUNTS_INCONSISTENT', () => {
    const reasonOf = (raw: Record<string, unknown>) => {
      const r = toInvoice(sourceRecord(raw), mapContext());
      return r.ok ? 'ok' : `${r.reason} ${r.field}`;
    };
    expect(reasonOf(discounted({ Amount: 8.44, detail: { DiscountRate: 15 } }, 8.44, 9.96))).toBe(
      'AMOUNTS_INCONSISTENT Line.0.Amount',
    );
    expect(reasonOf(discounted({ Amount: 8.42, detail: { DiscountAmt: 1.6 } }, 8.42, 9.94))).toBe(
      'AMOUNTS_INCONSISTENT Line.0.Amount',
    );
  });

  it('given the discounted line whose Amount does not add up to the SubTotal line, then AMOUNTS_INCONSISTENT', () => {
    const r = toInvoice(
      sourceRecord(discounted({ Amount: 8.42, detail: { DiscountRate: 15 } }, 8.4, 9.92)),
      mapContext(),
    );
    expect(r).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT' });
  });
});

describe('QuickBooks shipping line: QuickBooks’ arithmetic wins', () => {
  // Intuit's own published invoice (Sample_Inv#2, "Send an invoice" in
  // https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/invoice), kept in
  // test/fixtures/golden/quickbooks/: an item of 50.00, the SubTotal line 50.00, a 10 % discount of 5.00,
  // then the shipping line (ItemRef SHIPPING_ITEM_ID) of 2.00 after the subtotal, tax 10 % of 50.00 = 5.00,
  // TotalAmt 52.00 = 50 − 5 + 2 + 5, Deposit 12.00, Balance 40.00.
  const golden = JSON.parse(
    readFileSync(new URL('../../../fixtures/golden/quickbooks/invoice-discount-deposit.json', import.meta.url), 'utf8'),
  ).Invoice;
  const usCompany = () =>
    mapContext(
      { baseCurrency: 'USD' },
      buildLookups({
        companyInfo: { Id: '1', CompanyName: "Larry's Bakery", Country: 'US' },
        preferences: { CurrencyPrefs: { HomeCurrency: { value: 'USD' } } },
      }),
    );

  it('given the shipping line after the SubTotal line, when mapped, then it is not an item: the subtotal stays 50.00 and the 2.00 travels as a post-tax Shipping adjustment', () => {
    const { invoice } = mapped(golden, usCompany());
    expect(invoice.invoiceSubtotal).toBe(50);
    expect(invoice.lineItems).toHaveLength(1);
    expect(invoice.discount).toEqual({ amount: 5, percentage: 10, isPostTax: true });
    expect(invoice.invoiceTax?.total).toBe(5);
    expect(invoice.createInvoiceAdjustments).toEqual([{ name: 'Shipping', amount: 2, isPostTax: true }]);
    expect(invoice.invoiceTotal).toBe(52);
    // 50 − 5 + 5 + 2 = 52: billing's own arithmetic gives QuickBooks' total.
    expect(invoice.invoicePaidAmount).toBe(12);
  });

  it('given the same invoice whose TotalAmt leaves the shipping out, when mapped, then AMOUNTS_INCONSISTENT on the total (the check is not loosened)', () => {
    const r = toInvoice(sourceRecord({ ...golden, TotalAmt: 50, Balance: 38 }), usCompany());
    expect(r).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT', field: 'total' });
  });
});

describe('QuickBooks text lines, amount-only lines and tax-inclusive documents', () => {
  const au = () =>
    mapContext({ baseCurrency: 'AUD' }, buildLookups(fixture('lookups-au') as Parameters<typeof buildLookups>[0]));
  const gstAu = (amount: number) => ({
    total: amount,
    otherTaxes: [{ name: 'GST (sales)', genericTax: amount, genericTaxRate: 10 }],
    tds: 0,
  });

  it('given an Australian TaxInclusive invoice (Amount net, TaxInclusiveAmt gross on each line) with a DescriptionOnly line, when mapped, then the money is exact, each line total is its TaxInclusiveAmt within a cent, and the text is a zero line in its place', () => {
    const raw = fixture('invoice-au-tax-inclusive');
    const { invoice, warnings } = mapped(raw, au());
    expect(warnings).toEqual([]);
    expect(invoice).toMatchObject({
      invoiceSubtotal: 3592.39,
      invoiceTax: gstAu(359.24),
      invoiceTotal: 3951.63,
      invoicePaidAmount: 3951.63,
      invoiceCurrency: 'AUD',
    });
    const lines = invoice.lineItems!;
    expect(lines).toHaveLength(8);
    const gross = (raw.Line as Array<{ SalesItemLineDetail?: { TaxInclusiveAmt?: number } }>)
      .slice(0, 7)
      .map((l) => l.SalesItemLineDetail!.TaxInclusiveAmt!);
    lines.slice(0, 7).forEach((line, i) => expect(Math.abs(line.total - gross[i]!)).toBeLessThanOrEqual(0.01 + 1e-9));
    expect(lines[0]).toMatchObject({
      quantity: 3,
      subTotal: 277.69,
      total: 305.46,
      lineItemDetails: { name: 'MIG wire 0.9 mm', taxRate: 10 },
    });
    expect(lines[7]).toEqual({
      lineItemDetails: { name: 'Delivered to site, Coolgardie', taxRate: 0, pricePerItem: 0, lineItemId: '8' },
      quantity: 0,
      subTotal: 0,
      total: 0,
    });
  });

  it('given the same invoice whose first TaxInclusiveAmt is a dollar more than Amount + its GST, when mapped, then AMOUNTS_INCONSISTENT naming the line and both figures', () => {
    const raw = fixture('invoice-au-tax-inclusive') as {
      Line: Array<{ SalesItemLineDetail?: { TaxInclusiveAmt?: number } }>;
    };
    raw.Line[0]!.SalesItemLineDetail!.TaxInclusiveAmt = 306.46;
    const r = toInvoice(sourceRecord(raw as unknown as Record<string, unknown>), au());
    expect(r).toMatchObject({
      ok: false,
      reason: 'AMOUNTS_INCONSISTENT',
      field: 'Line.0.SalesItemLineDetail.TaxInclusiveAmt',
    });
    expect(!r.ok && r.message).toBe(
      'Line.0.SalesItemLineDetail.TaxInclusiveAmt: Amount 277.69 + its tax 27.77 = 305.46, but TaxInclusiveAmt is 306.46 AUD',
    );
  });

  it('given a TaxExcluded invoice whose lines carry TaxInclusiveAmt 0 (as QBO prints it there), when mapped, then nothing is checked against it', () => {
    const raw = fixture('invoice-intra-state') as { Line: Array<{ SalesItemLineDetail?: Record<string, unknown> }> };
    raw.Line[0]!.SalesItemLineDetail!.TaxInclusiveAmt = 0;
    expect(
      mapped({ ...raw, GlobalTaxCalculation: 'TaxExcluded', _customer: fixture('customer-registered') }).invoice
        .invoiceTotal,
    ).toBe(88500);
  });

  it('given a DescriptionOnly inline subtotal ("Subtotal: 75000.00" with Amount 75000), when mapped, then it is text: carried as a zero line, its Amount never added', () => {
    const raw = fixture('invoice-intra-state') as { Line: unknown[] };
    raw.Line.splice(2, 0, {
      Id: '9',
      LineNum: 3,
      Description: 'Subtotal: 75000.00',
      Amount: 75000,
      DetailType: 'DescriptionOnly',
      DescriptionLineDetail: {},
    });
    const { invoice, warnings } = mapped({ ...raw, _customer: fixture('customer-registered') });
    expect(warnings).toEqual([]);
    expect(invoice).toMatchObject({ invoiceSubtotal: 75000, invoiceTotal: 88500 });
    expect(invoice.lineItems!.map((l) => [l.lineItemDetails!.name, l.quantity, l.subTotal])).toEqual([
      ['Annual SaaS subscription', 1, 50000],
      ['Onboarding services', 10, 25000],
      ['Subtotal: 75000.00', 0, 0],
      ['Thank you for your business.', 0, 0],
    ]);
  });

  it('given a SalesItemLineDetail with an Amount but no Qty or UnitPrice (a description with an amount), when mapped, then it is quantity 1 at that amount', () => {
    const raw = fixture('invoice-intra-state') as { Line: Array<{ SalesItemLineDetail?: Record<string, unknown> }> };
    delete raw.Line[1]!.SalesItemLineDetail!.Qty;
    delete raw.Line[1]!.SalesItemLineDetail!.UnitPrice;
    const { invoice } = mapped({ ...raw, _customer: fixture('customer-registered') });
    expect(invoice.lineItems![1]).toMatchObject({
      quantity: 1,
      subTotal: 25000,
      lineItemDetails: { pricePerItem: 25000 },
    });
    expect(invoice.invoiceTotal).toBe(88500);
  });

  it('given a SalesItemLineDetail with no ItemRef and no money, when mapped, then it is a text line', () => {
    const raw = fixture('invoice-intra-state') as { Line: unknown[] };
    raw.Line.splice(0, 0, {
      Id: '10',
      Description: 'Phase 2 of the rollout',
      Amount: 0,
      DetailType: 'SalesItemLineDetail',
      SalesItemLineDetail: {},
    });
    const { invoice } = mapped({ ...raw, _customer: fixture('customer-registered') });
    expect(invoice.lineItems![0]).toEqual({
      lineItemDetails: { name: 'Phase 2 of the rollout', taxRate: 0, pricePerItem: 0, lineItemId: '10' },
      quantity: 0,
      subTotal: 0,
      total: 0,
    });
    expect(invoice.invoiceTotal).toBe(88500);
  });
});

describe('QuickBooks invoice → tags and customerMemo', () => {
  it('given ClassRef, DepartmentRef and custom fields of every type, then tags holds the class, the department and each field with a value under its Name; CustomerMemo goes to metaData', () => {
    const { invoice, warnings } = mapped(fixture('invoice-inter-state'));
    expect(invoice.tags).toEqual({
      Class: 'Enterprise',
      Department: 'Mumbai',
      'P.O. Number': 'PO-88121',
      'Project code': 'PRJ-BHT-014',
      'Contract months': 12,
      'Renewal date': '2026-02-10',
    });
    expect(invoice.metaData).toMatchObject({ customerMemo: 'Thank you for your business.' });
    expect(warnings).toEqual([]);
  });

  it("given no document ClassRef but classes on the lines, then Class lists the lines' classes, distinct, in line order", () => {
    const raw = fixture<Record<string, any>>('invoice-intra-state');
    const items = raw.Line.filter((l: Record<string, any>) => l.DetailType === 'SalesItemLineDetail');
    items.forEach((l: Record<string, any>, i: number) => {
      l.SalesItemLineDetail.ClassRef = { value: String(i), name: i === 1 ? 'SMB' : 'Enterprise' };
    });
    expect(items.length).toBeGreaterThan(1);
    const { invoice } = mapped({ ...raw, _customer: fixture('customer-registered') });
    expect(invoice.tags).toEqual({ Class: 'Enterprise, SMB' });
  });

  it('given a custom field named like a tag already set, and a ref without a name, then the first value is kept and each is warned about, never silently overwritten', () => {
    const raw = fixture<Record<string, any>>('invoice-inter-state');
    raw.CustomField = [
      { DefinitionId: '1', Name: 'Class', Type: 'StringType', StringValue: 'Gold' },
      { DefinitionId: '2', Name: 'Region', Type: 'STRING_TYPE', StringValue: 'West' },
      { DefinitionId: '3', Name: 'Region', Type: 'StringType', StringValue: 'East' },
    ];
    raw.DepartmentRef = { value: '9' };
    const { invoice, warnings } = mapped(raw);
    expect(invoice.tags).toEqual({ Class: 'Enterprise', Region: 'West' });
    expect(warnings).toEqual([
      'DepartmentRef 9 has no name; not sent as a tag',
      'CustomField.0 "Class" repeats a tag already set; the first value is kept',
      'CustomField.2 "Region" repeats a tag already set; the first value is kept',
    ]);
  });
});

describe('QuickBooks invoice → a connection fields mapping on custom fields', () => {
  // invoice-inter-state.json: QBO's Invoice shape
  // (https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/invoice) with
  // CustomField[] {DefinitionId, Name, Type, StringValue | NumberValue | DateValue} as read with
  // include=enhancedAllCustomFields (https://developer.intuit.com/app/developer/qbo/docs/workflows/create-custom-fields/get-started).
  it('given rules naming a custom field by Name and one by DefinitionId, then each goes to the key its rule names, the others stay tags under their Name', () => {
    const fields = [
      { from: { customField: 'P.O. Number' }, to: { metaData: 'poNumber' } },
      { from: { customField: '1000000002' }, to: { tag: 'months' } },
    ];
    const { invoice, warnings } = mapped(fixture('invoice-inter-state'), mapContext({ fields }));
    expect(invoice.tags).toEqual({
      Class: 'Enterprise',
      Department: 'Mumbai',
      months: 12,
      'Project code': 'PRJ-BHT-014',
      'Renewal date': '2026-02-10',
    });
    expect(invoice.metaData).toMatchObject({ poNumber: 'PO-88121', customerMemo: 'Thank you for your business.' });
    expect(warnings).toEqual([]);
  });

  it('given a rule sending a custom field to a metaData key the sync writes itself, then the sync keeps its value and warns', () => {
    const fields = [{ from: { customField: 'P.O. Number' }, to: { metaData: 'customerMemo' } }];
    const { invoice, warnings } = mapped(fixture('invoice-inter-state'), mapContext({ fields }));
    expect(invoice.metaData!.customerMemo).toBe('Thank you for your business.');
    expect(warnings).toEqual([
      'a field mapped to metaData key "customerMemo" is left out: the sync writes that key itself',
    ]);
  });
});
