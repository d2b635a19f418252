import { describe, expect, it } from 'vitest';
import type { MapContext } from '../../../../src/connector/types.js';
import { toCreditNote } from '../../../../connectors/xero/map/credit-note.js';
import { CreditNoteUpsertBody } from '../../../../src/billing/schemas/credit-note.js';
import type { XeroCreditNote } from '../../../../connectors/xero/schemas.js';
import { creditNoteRecord, indiaLookups, ukLookups } from '../fixtures.js';

const ctx: MapContext = {
  connectionId: 'xero-in',
  originSource: 'EXTERNAL_SYSTEM_C',
  baseCurrency: 'INR',
  lookups: indiaLookups,
};

describe('Xero credit note mapping', () => {
  it('given allocations and remaining credit that do not add up to the total, then AMOUNTS_INCONSISTENT', () => {
    const record = creditNoteRecord('credit-note-allocations.json');
    expect(toCreditNote({ ...record, raw: { ...record.raw, RemainingCredit: 830 } }, ctx)).toMatchObject({
      ok: false,
      reason: 'AMOUNTS_INCONSISTENT',
      field: 'RemainingCredit',
    });
  });

  it('given a VOIDED credit note, then the balance check is skipped and the status travels in metaData', () => {
    const record = creditNoteRecord('credit-note-allocations.json');
    const voided = {
      ...record,
      status: 'VOIDED',
      raw: { ...record.raw, Status: 'VOIDED', Allocations: [], RemainingCredit: 0 },
    };
    const r = toCreditNote(voided, ctx);
    expect(r.ok && r.value.kind === 'credit-note' && r.value.creditNote.metaData?.sourceStatus).toBe('VOIDED');
  });

  it('given a supplier credit (ACCPAYCREDIT), then UNSUPPORTED', () => {
    const record = creditNoteRecord('credit-note-allocations.json');
    expect(toCreditNote({ ...record, raw: { ...record.raw, Type: 'ACCPAYCREDIT' } }, ctx)).toMatchObject({
      ok: false,
      reason: 'UNSUPPORTED',
    });
  });
});

describe('Xero text lines and amount-only lines (src/mapping/text-line.ts, quantity-and-price.ts)', () => {
  const uk: MapContext = {
    connectionId: 'xero-uk',
    originSource: 'EXTERNAL_SYSTEM_C',
    baseCurrency: 'GBP',
    lookups: ukLookups,
  };
  const vat = (amount: number) => ({
    total: amount,
    otherTaxes: [{ name: '20% (VAT on Income)', genericTax: amount, genericTaxRate: 20 }],
    tds: 0,
  });
  const mapped = (raw: XeroCreditNote) => {
    const r = toCreditNote({ ...creditNoteRecord('credit-note-uk-inclusive-text-line.json'), raw }, uk);
    if (!r.ok || r.value.kind !== 'credit-note')
      throw new Error(r.ok ? 'not a credit note' : `${r.reason}: ${r.message}`);
    return r.value.creditNote;
  };
  const ukRaw = () => structuredClone(creditNoteRecord('credit-note-uk-inclusive-text-line.json').raw);

  it('given a UK tax-inclusive credit note whose first line is just a description (no Quantity, UnitAmount or LineAmount), when mapped, then it syncs: the text is a zero line, the money is exact', () => {
    const creditNote = mapped(ukRaw());
    expect(() => CreditNoteUpsertBody.parse({ creditNote })).not.toThrow();
    expect(creditNote).toMatchObject({
      creditNoteNumber: 'CN-0042',
      creditNoteSubtotal: 139.97,
      creditNoteTax: vat(28),
      creditNoteTotal: 167.97,
      creditNoteRemainingAmount: 167.97,
      creditNoteCurrency: 'GBP',
      metaData: { lineAmountTypes: 'Inclusive' },
    });
    expect(creditNote.lineItems).toEqual([
      {
        lineItemDetails: {
          name: 'Goods returned from invoice INV-0412, received damaged on 3 March',
          taxRate: 0,
          pricePerItem: 0,
          lineItemId: '0c9b8a7d-6e5f-4a3b-8c2d-1e0f9a8b7c61',
        },
        quantity: 0,
        subTotal: 0,
        total: 0,
      },
      {
        lineItemDetails: {
          name: 'Digital level DL-20, returned',
          taxRate: 20,
          pricePerItem: 120,
          lineItemId: '0c9b8a7d-6e5f-4a3b-8c2d-1e0f9a8b7c62',
        },
        quantity: 1,
        subTotal: 100,
        total: 120,
        tax: vat(20),
      },
      {
        lineItemDetails: {
          name: 'Calibration targets (pack of 10)',
          taxRate: 20,
          pricePerItem: 15.99,
          lineItemId: '0c9b8a7d-6e5f-4a3b-8c2d-1e0f9a8b7c63',
        },
        quantity: 3,
        subTotal: 39.97,
        total: 47.97,
        tax: vat(8),
      },
    ]);
  });

  it('given the text line without a TaxAmount either, when mapped, then the same body', () => {
    const raw = ukRaw();
    delete raw.LineItems![0]!.TaxAmount;
    expect(mapped(raw)).toEqual(mapped(ukRaw()));
  });

  it('given a line with a Description and a LineAmount but no Quantity or UnitAmount, when mapped, then it is quantity 1 at that amount (tax-inclusive), and the document still adds up', () => {
    const raw = ukRaw();
    raw.LineItems![0] = { ...raw.LineItems![0]!, TaxType: 'OUTPUT2', TaxAmount: 4, LineAmount: 24 };
    Object.assign(raw, { SubTotal: 159.97, TotalTax: 32, Total: 191.97, RemainingCredit: 191.97 });
    const creditNote = mapped(raw);
    expect(creditNote.lineItems![0]).toEqual({
      lineItemDetails: {
        name: 'Goods returned from invoice INV-0412, received damaged on 3 March',
        taxRate: 20,
        pricePerItem: 24,
        lineItemId: '0c9b8a7d-6e5f-4a3b-8c2d-1e0f9a8b7c61',
      },
      quantity: 1,
      subTotal: 20,
      total: 24,
      tax: vat(4),
    });
    expect(creditNote).toMatchObject({ creditNoteSubtotal: 159.97, creditNoteTax: vat(32), creditNoteTotal: 191.97 });
  });

  it('given a line with a Quantity and a LineAmount but no UnitAmount, when mapped, then the unit price is LineAmount ÷ Quantity, as Xero derives it', () => {
    const raw = ukRaw();
    delete raw.LineItems![2]!.UnitAmount;
    expect(mapped(raw).lineItems![2]).toMatchObject({
      quantity: 3,
      lineItemDetails: { pricePerItem: 15.99 },
      subTotal: 39.97,
      total: 47.97,
    });
  });

  it('given a line that names an item at zero (ItemCode, Quantity 2, UnitAmount 0, LineAmount 0), when mapped, then it stays a priced line with its quantity, not text', () => {
    const raw = ukRaw();
    raw.LineItems![0] = {
      ...raw.LineItems![0]!,
      ItemCode: 'SAMPLE-PACK',
      Quantity: 2,
      UnitAmount: 0,
      LineAmount: 0,
      TaxType: 'OUTPUT2',
    };
    expect(mapped(raw).lineItems![0]).toMatchObject({
      quantity: 2,
      subTotal: 0,
      total: 0,
      lineItemDetails: { erpId: 'SAMPLE-PACK', pricePerItem: 0, taxRate: 20 },
    });
  });

  it('given a line with neither money nor a description, when mapped, then it is left out with a warning naming the line', () => {
    const raw = ukRaw();
    raw.LineItems![0] = { LineItemID: raw.LineItems![0]!.LineItemID };
    const r = toCreditNote({ ...creditNoteRecord('credit-note-uk-inclusive-text-line.json'), raw }, uk);
    expect(r.ok && r.value.kind === 'credit-note' && r.value.creditNote.lineItems).toHaveLength(2);
    expect(r.ok && r.warnings).toEqual(['LineItems.0: a line with neither money nor text; left out']);
  });

  it('given a line with a TaxAmount but no LineAmount, when mapped, then MISSING_FIELD (money without the line amount Xero always states)', () => {
    const raw = ukRaw();
    raw.LineItems![0] = { ...raw.LineItems![0]!, TaxAmount: 4 };
    expect(toCreditNote({ ...creditNoteRecord('credit-note-uk-inclusive-text-line.json'), raw }, uk)).toMatchObject({
      ok: false,
      reason: 'MISSING_FIELD',
      field: 'LineItems.0.LineAmount',
    });
  });
});
