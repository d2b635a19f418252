import { describe, expect, it } from 'vitest';
import { toCreditNote } from '../../../../connectors/zoho-books/map/credit-note.js';
import { toInvoice } from '../../../../connectors/zoho-books/map/invoice.js';
import { invoiceOf, mapContext, record, variant } from '../fixtures.js';

const IRN = '3f6c2b9a1e0d47c5b8a29e61f04d7c3a5b2e8f19d6c4a7b0e3f5d2c1a9b8e7f6';

/** India e-invoice (map/einvoice.ts). Fixture: test/fixtures/zoho-books/invoice-einvoiced-tds.json. */
describe('e-invoice (map/einvoice.ts)', () => {
  it('given a pushed e-invoice, then irnNumber is the IRN and the acknowledgement, status and QR link travel in metaData, the time in IST', () => {
    const inv = invoiceOf(toInvoice(record('invoice-einvoiced-tds', 'invoice'), mapContext()));
    expect(inv.irnNumber).toBe(IRN);
    expect(inv.eInvoiceQrCode).toBeUndefined();
    expect(inv.metaData).toMatchObject({
      einvoiceStatus: 'pushed',
      einvoiceAckNumber: '112510070045123',
      einvoiceAcknowledgedAt: '2025-04-07T15:42:00+05:30',
      einvoiceQrLink: 'https://books.zoho.in/einvoice/qrcode?eInvoiceID=2-1890000000043401',
    });
  });

  it('given a cancelled IRN on an invoice Zoho has not voided, then no irnNumber is sent, the cancelled IRN is kept in metaData, and the invoice is not a void', () => {
    const r = variant('invoice-einvoiced-tds', 'invoice', (i) => {
      i.einvoice_details.status = 'cancelled';
    });
    const inv = invoiceOf(toInvoice(r, mapContext()));
    expect(inv.irnNumber).toBeUndefined();
    expect(inv.metaData).toMatchObject({
      sourceStatus: 'partially_paid',
      einvoiceStatus: 'cancelled',
      einvoiceCancelledIrn: IRN,
    });
    expect(inv.invoiceTotal).toBe(118000);
  });

  it('given a failed push without an IRN, then no irnNumber and the status in metaData', () => {
    const r = variant('invoice-einvoiced-tds', 'invoice', (i) => {
      i.einvoice_details = { status: 'failed', inv_ref_num: '', ack_number: '', ack_date: '' };
    });
    const inv = invoiceOf(toInvoice(r, mapContext()));
    expect(inv.irnNumber).toBeUndefined();
    expect(inv.metaData?.einvoiceStatus).toBe('failed');
    expect(inv.metaData).not.toHaveProperty('einvoiceAckNumber');
  });

  it('given no einvoice_details, then nothing of the e-invoice is sent', () => {
    const inv = invoiceOf(toInvoice(record('invoice-intra-state', 'invoice'), mapContext()));
    expect(inv.irnNumber).toBeUndefined();
    expect(Object.keys(inv.metaData ?? {}).filter((k) => k.startsWith('einvoice'))).toEqual([]);
  });

  it('given an ack_date that is not a date and time, then INVALID_FIELD naming einvoice_details.ack_date', () => {
    const r = variant('invoice-einvoiced-tds', 'invoice', (i) => (i.einvoice_details.ack_date = '07/04/2025'));
    expect(toInvoice(r, mapContext())).toMatchObject({
      ok: false,
      reason: 'INVALID_FIELD',
      field: 'einvoice_details.ack_date',
    });
  });
});

describe('e-invoiced credit notes (map/credit-note.ts, map/einvoice.ts)', () => {
  it('given a pushed credit note, then its IRN, acknowledgement and status travel in metaData (the credit-note body has no IRN field)', () => {
    const r = variant('credit-note-two-invoices', 'creditnote', (c) => {
      c.einvoice_details = {
        inv_ref_num: IRN,
        ack_number: '112510070045999',
        ack_date: '2025-04-08 10:00:00',
        status: 'pushed',
        qr_link: 'https://books.zoho.in/einvoice/qrcode?eInvoiceID=2-1',
      };
    });
    const result = toCreditNote(r, mapContext());
    if (!result.ok || result.value.kind !== 'credit-note') throw new Error('not mapped');
    expect(result.value.creditNote.metaData).toMatchObject({
      einvoiceIrn: IRN,
      einvoiceStatus: 'pushed',
      einvoiceAckNumber: '112510070045999',
      einvoiceAcknowledgedAt: '2025-04-08T10:00:00+05:30',
    });
  });
});
