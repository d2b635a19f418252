import { describe, expect, it } from 'vitest';
import { isChecked } from '../../../src/billing/schemas/checked-input.js';
import { CreditNoteUpsertBody, InvoiceUpsertBody } from '../../../src/billing/schemas/index.js';
import { parseBillingBody } from '../../../src/connector/billing-body.js';

/** A mapped invoice as a job payload carries it: billing's defaults (currency, totals, origin) not filled yet. */
const invoice = {
  invoiceId: 'inv.zoho.460000000026049',
  invoiceNumber: 'INV-000042',
  invoiceDate: { date: '2026-11-01' },
  invoiceSubtotal: 1000,
  invoiceTax: {
    total: 180,
    gstTax: { totalGst: 180, totalGstRate: 18, cgst: 90, cgstRate: 9, sgst: 90, sgstRate: 9, igst: 0, igstRate: 0 },
  },
  invoiceTotal: 1180,
  customerDetails: { buyerId: 'cust.zoho.460000000012001', name: 'Acme Traders' },
};

describe('a body the upsert job parsed', () => {
  it('given an invoice body, then the invoice the parse returned is checked, and the payload it came from and a copy are not', () => {
    const payload = { kind: 'invoice', invoice };
    const parsed = parseBillingBody(payload);
    expect(parsed.success).toBe(true);
    const out = parsed.data!;
    expect(out.kind === 'invoice' && isChecked(out.invoice)).toBe(true);
    expect(isChecked(payload.invoice)).toBe(false);
    expect(out.kind === 'invoice' && isChecked({ ...out.invoice })).toBe(false);
  });

  it('given its invoice or credit note, when the billing schema parses it again, then it comes back unchanged (why the client may send it as it is)', () => {
    const inv = parseBillingBody({ kind: 'invoice', invoice }).data!;
    expect(inv.kind).toBe('invoice');
    if (inv.kind === 'invoice')
      expect(InvoiceUpsertBody.parse({ invoice: inv.invoice })).toEqual({ invoice: inv.invoice });
    const cn = parseBillingBody({
      kind: 'credit-note',
      creditNote: {
        creditNoteId: 'cn.zoho.1',
        creditNoteNumber: 'CN-00001',
        creditNoteDate: { date: '2026-11-02' },
        creditNoteSubtotal: 100,
        customerDetails: invoice.customerDetails,
      },
    });
    expect(cn.success, JSON.stringify(cn.error?.issues)).toBe(true);
    if (cn.data?.kind === 'credit-note') {
      expect(isChecked(cn.data.creditNote)).toBe(true);
      expect(CreditNoteUpsertBody.parse({ creditNote: cn.data.creditNote })).toEqual({
        creditNote: cn.data.creditNote,
      });
    }
  });

  it('given a body billing refuses, then nothing is checked and the refusal names the field', () => {
    const parsed = parseBillingBody({ kind: 'invoice', invoice: { ...invoice, invoiceDate: { date: '2026-02-30' } } });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error!.issues)).toContain('invoiceDate');
  });
});
