import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildLookups } from '../../../../connectors/quickbooks/streams/lookups.js';
import { toCreditNote } from '../../../../connectors/quickbooks/map/credit-note.js';
import { CreditNoteUpsertBody } from '../../../../src/billing/schemas/index.js';
import { fixture, mapContext, sourceRecord } from '../fixtures.js';

function mapped(raw: Record<string, unknown>) {
  const r = toCreditNote(sourceRecord(raw), mapContext());
  if (!r.ok) throw new Error(`${r.reason}: ${r.message}`);
  if (r.value.kind !== 'credit-note') throw new Error('not a credit note');
  expect(CreditNoteUpsertBody.safeParse({ creditNote: r.value.creditNote }).success).toBe(true);
  return { creditNote: r.value.creditNote, warnings: r.warnings ?? [] };
}

describe('QuickBooks credit memo → billing credit note', () => {
  it('given a credit memo not yet applied, then the application amount is 0 and the status open', () => {
    const { creditNote } = mapped({ ...fixture('credit-memo-applied'), RemainingCredit: 1180, Balance: 1180 });
    expect(creditNote.appliedToInvoices).toEqual([{ invoiceId: 'inv.qbo-in.1051', amount: 0 }]);
    expect(creditNote.creditNoteRemainingAmount).toBe(1180);
    expect(creditNote.metaData?.sourceStatus).toBe('open');
  });

  it('given a credit memo that names two invoices, then no amounts are invented: the ids go to metaData with a warning', () => {
    const raw = {
      ...fixture('credit-memo-applied'),
      LinkedTxn: [
        { TxnId: '1051', TxnType: 'Invoice' },
        { TxnId: '1052', TxnType: 'Invoice' },
      ],
    };
    const { creditNote, warnings } = mapped(raw);
    expect(creditNote.appliedToInvoices).toBeUndefined();
    expect(creditNote.metaData?.linkedInvoiceErpIds).toBe('1051,1052');
    // Only the memo's CustomerRef (no customer record attached): the document names no address, so country,
    // currency and state are the company's (CompanyInfo, Preferences).
    expect(creditNote.customerDetails).toStrictEqual({
      buyerId: 'cust.qbo-in.12',
      erpId: '12',
      name: 'Kaveri Textiles Pvt Ltd',
      isManuallyCreated: false,
      countryCode: 'IN',
      currency: 'INR',
      stateCode: 'KA',
    });
    expect(warnings).toEqual([
      'credit memo 7 names invoices 1051, 1052 without a per-invoice amount; sent in metaData only',
    ]);
  });

  it('given a discount line on a credit memo, then it becomes a negative line and the subtotal is net of it', () => {
    const raw = fixture('credit-memo-applied');
    const lines = raw.Line as unknown[];
    raw.Line = [
      ...lines,
      {
        Id: '2',
        Amount: 100,
        DetailType: 'DiscountLineDetail',
        DiscountLineDetail: { PercentBased: true, DiscountPercent: 10 },
      },
    ];
    raw.TxnTaxDetail = {
      TotalTax: 162,
      TaxLine: [
        { Amount: 81, DetailType: 'TaxLineDetail', TaxLineDetail: { TaxRateRef: { value: '7' }, TaxPercent: 9 } },
        { Amount: 81, DetailType: 'TaxLineDetail', TaxLineDetail: { TaxRateRef: { value: '8' }, TaxPercent: 9 } },
      ],
    };
    Object.assign(raw, { TotalAmt: 1062, RemainingCredit: 0 });
    const { creditNote } = mapped(raw);
    expect(creditNote.creditNoteSubtotal).toBe(900);
    expect(creditNote.creditNoteTotal).toBe(1062);
    expect(creditNote.lineItems?.at(-1)).toStrictEqual({
      lineItemDetails: { name: 'Discount', taxRate: 0, pricePerItem: -100 },
      quantity: 1,
      subTotal: -100,
      total: -100,
    });
  });

  it('given RemainingCredit above the total, then AMOUNTS_INCONSISTENT', () => {
    const r = toCreditNote(sourceRecord({ ...fixture('credit-memo-applied'), RemainingCredit: 2000 }), mapContext());
    expect(r).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT', field: 'RemainingCredit' });
  });
});

describe('QuickBooks credit memo with a shipping line', () => {
  it('given a credit memo with the lines of Intuit’s published Sample_Inv#2 (item 50.00, SubTotal 50.00, 10 % discount 5.00, shipping 2.00 after the subtotal, tax 5.00, total 52.00), when mapped, then the shipping is a "Shipping" line inside the subtotal and subtotal + tax = total', () => {
    const golden = JSON.parse(
      readFileSync(
        new URL('../../../fixtures/golden/quickbooks/invoice-discount-deposit.json', import.meta.url),
        'utf8',
      ),
    ).Invoice;
    const memo = {
      ...golden,
      Id: '960',
      DocNumber: 'CM-960',
      RemainingCredit: 52,
      Deposit: undefined,
      Balance: undefined,
    };
    const ctx = mapContext(
      { baseCurrency: 'USD' },
      buildLookups({
        companyInfo: { Id: '1', CompanyName: "Larry's Bakery", Country: 'US' },
        preferences: { CurrencyPrefs: { HomeCurrency: { value: 'USD' } } },
      }),
    );
    const r = toCreditNote(sourceRecord(memo), ctx);
    if (!r.ok || r.value.kind !== 'credit-note')
      throw new Error(r.ok ? 'not a credit note' : `${r.reason}: ${r.message}`);
    const cn = r.value.creditNote;
    expect(CreditNoteUpsertBody.safeParse({ creditNote: cn }).success).toBe(true);
    expect(cn.lineItems?.map((l) => [l.lineItemDetails?.name, l.subTotal])).toEqual([
      ['Hours', 50],
      ['Discount', -5],
      ['Shipping', 2],
    ]);
    expect(cn.creditNoteSubtotal).toBe(47);
    expect(cn.creditNoteTax?.total).toBe(5);
    expect(cn.creditNoteTotal).toBe(52);
  });
});

describe('QuickBooks credit memo text lines', () => {
  it('given a credit memo with a DescriptionOnly line before its item, when mapped, then the text is a zero line in its place and the amounts are unchanged', () => {
    const raw = fixture('credit-memo-applied') as { Line: unknown[] };
    raw.Line.unshift({
      Id: '5',
      LineNum: 1,
      Description: 'Credit for the 12 February outage',
      DetailType: 'DescriptionOnly',
      DescriptionLineDetail: {},
    });
    const { creditNote, warnings } = mapped({ ...raw, _customer: fixture('customer-registered') });
    expect(warnings).toEqual([]);
    expect(creditNote).toMatchObject({ creditNoteSubtotal: 1000, creditNoteTotal: 1180 });
    expect(creditNote.lineItems).toHaveLength(2);
    expect(creditNote.lineItems![0]).toEqual({
      lineItemDetails: { name: 'Credit for the 12 February outage', taxRate: 0, pricePerItem: 0, lineItemId: '5' },
      quantity: 0,
      subTotal: 0,
      total: 0,
    });
  });
});
