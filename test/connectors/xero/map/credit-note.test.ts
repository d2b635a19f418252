import { describe, expect, it } from 'vitest';
import type { MapContext } from '../../../../src/connector/types.js';
import { toCreditNote } from '../../../../connectors/xero/map/credit-note.js';
import { CreditNoteUpsertBody } from '../../../../src/billing/schemas/credit-note.js';
import { invoiceIdFor } from '../../../../src/mapping/index.js';
import { creditNoteRecord, gst, indiaLookups } from '../fixtures.js';

const ctx: MapContext = { connectionId: 'xero-in', originSource: 'EXTERNAL_SYSTEM_C', baseCurrency: 'INR', lookups: indiaLookups };

describe('Xero credit note mapping', () => {
  it('given an ACCRECCREDIT with two live allocations and a deleted one, then the body applies it to the same invoice ids the invoice stream uses', () => {
    const r = toCreditNote(creditNoteRecord('credit-note-allocations.json'), ctx);
    if (!r.ok || r.value.kind !== 'credit-note') throw new Error(r.ok ? 'not a credit note' : r.message);
    const creditNote = r.value.creditNote;
    expect(() => CreditNoteUpsertBody.parse({ creditNote })).not.toThrow();
    expect(creditNote).toEqual({
      creditNoteId: 'cn.xero-in.22222222-aaaa-4bbb-8ccc-000000000007',
      creditNoteNumber: 'CN-0007',
      creditNoteDate: { date: '2025-03-06' },
      creditNoteSubtotal: 1000,
      creditNoteTax: gst(180, 90, 90, 9),
      creditNoteTotal: 1180,
      creditNoteRemainingAmount: 730,
      creditNoteCurrency: 'INR',
      lineItems: [
        {
          lineItemDetails: { name: 'Service credit', taxRate: 18, pricePerItem: 1000, lineItemId: 'c3d4e5f6-0000-4a4a-8b8b-000000000201' },
          quantity: 1,
          subTotal: 1000,
          total: 1180,
          tax: gst(180, 90, 90, 9),
        },
      ],
      customerDetails: {
        buyerId: 'cust.xero-in.3c9e1f2a-4b5c-4d6e-8f70-1a2b3c4d5e6f',
        erpId: '3c9e1f2a-4b5c-4d6e-8f70-1a2b3c4d5e6f',
        isManuallyCreated: false,
        name: 'Kaveri Analytics Pvt Ltd',
        countryCode: 'IN',
        currency: 'INR',
      },
      customerName: 'Kaveri Analytics Pvt Ltd',
      appliedToInvoices: [
        { invoiceId: invoiceIdFor('xero-in', '11111111-aaaa-4bbb-8ccc-000000000102'), invoiceNumber: 'INV-0102', amount: 150 },
        { invoiceId: 'inv.xero-in.11111111-aaaa-4bbb-8ccc-000000000108', invoiceNumber: 'INV-0108', amount: 300 },
      ],
      reason: 'Returned goods',
      erpId: '22222222-aaaa-4bbb-8ccc-000000000007',
      creditNoteOriginSource: 'EXTERNAL_SYSTEM_C',
      metaData: {
        sourceSystem: 'xero',
        sourceStatus: 'AUTHORISED',
        sourceVersion: '2025-03-07T00:00:12.345Z',
        erpNumber: 'CN-0007',
        lineAmountTypes: 'Exclusive',
      },
    });
  });

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
    const voided = { ...record, status: 'VOIDED', raw: { ...record.raw, Status: 'VOIDED', Allocations: [], RemainingCredit: 0 } };
    const r = toCreditNote(voided, ctx);
    expect(r.ok && r.value.kind === 'credit-note' && r.value.creditNote.metaData?.sourceStatus).toBe('VOIDED');
  });

  it('given a supplier credit (ACCPAYCREDIT), then UNSUPPORTED', () => {
    const record = creditNoteRecord('credit-note-allocations.json');
    expect(toCreditNote({ ...record, raw: { ...record.raw, Type: 'ACCPAYCREDIT' } }, ctx)).toMatchObject({ ok: false, reason: 'UNSUPPORTED' });
  });
});
