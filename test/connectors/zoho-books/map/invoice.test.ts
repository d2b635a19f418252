import { describe, expect, it } from 'vitest';
import { toInvoice } from '../../../../connectors/zoho-books/map/invoice.js';
import type { ZohoLookups } from '../../../../connectors/zoho-books/streams/lookups.js';
import { fixture, invoiceOf, mapContext, record, variant } from '../fixtures.js';

describe('toInvoice (map/invoice.ts): fixtures → the exact billing body; paid, balance, status, malformed records', () => {
  it.each([
    [
      'invoice-intra-state',
      'India intra-state (a Zoho sample invoice): CGST 9 + SGST 9 from the GST18 group, partially paid',
    ],
    ['invoice-inter-state-igst', 'inter-state: IGST 18 on each line, paise rounded per line'],
    [
      'invoice-usd-in-inr-org',
      'USD invoice in an INR organisation: exchange_rate 83.125 checked against bcy_total, item discount',
    ],
    ['invoice-partially-paid', 'partially paid with payment, credits and a write-off'],
    ['invoice-void', 'void: mapped, with metaData.sourceStatus "void"'],
    ['invoice-entity-discount-before-tax', 'entity-level 10 % discount before tax, shipping, adjustment and round-off'],
  ])('given %s (%s), then the body is exactly the expected one', (name) => {
    const result = toInvoice(record(name, 'invoice'), mapContext());
    if (!result.ok) throw new Error(`${result.reason}: ${result.message}`);
    expect(result.value).toEqual({ kind: 'invoice', invoice: fixture(`${name}.expected`) });
  });

  it.each([
    ['invoice-inconsistent-total', 'AMOUNTS_INCONSISTENT', 'total'],
    ['invoice-usd-rate-one', 'FX_SUSPECT', 'exchange_rate'],
    ['invoice-usd-no-rate', 'FX_UNDERIVABLE', 'exchange_rate'],
  ])('given %s, then it is quarantined as %s (field %s) and never mapped', (name, reason, field) => {
    const result = toInvoice(record(name, 'invoice'), mapContext());
    expect(result).toMatchObject({ ok: false, reason, field });
  });

  it('given a balance that is not total − paid − credits − write-off, then AMOUNTS_INCONSISTENT; for a void or draft the balance is not checked', () => {
    expect(
      toInvoice(
        variant('invoice-intra-state', 'invoice', (i) => (i.balance = 48000)),
        mapContext(),
      ),
    ).toMatchObject({ ok: false, field: 'balance' });
    const draft = toInvoice(
      variant('invoice-intra-state', 'invoice', (i) => ((i.status = 'draft'), (i.balance = 0), (i.payment_made = 0))),
      mapContext(),
    );
    expect(invoiceOf(draft).metaData?.sourceStatus).toBe('draft');
  });

  it('given a malformed record, then INVALID_FIELD lists the paths and never the values', () => {
    const r = toInvoice(
      variant(
        'invoice-intra-state',
        'invoice',
        (i) => ((i.line_items = 'nope'), (i.customer_name = { secret: 'Bharat' })),
      ),
      mapContext(),
    );
    expect(r).toMatchObject({ ok: false, reason: 'INVALID_FIELD' });
    expect(!r.ok && r.issues?.join('\n')).toMatch(
      /invoice\.customer_name.*\n.*invoice\.line_items|invoice\.line_items.*\n.*invoice\.customer_name/s,
    );
    expect(JSON.stringify(r)).not.toContain('Bharat');
  });

  it('given no lookups in the map context, then MISSING_FIELD instead of a guess', () => {
    expect(
      toInvoice(variant('invoice-intra-state', 'invoice'), mapContext({ lookups: {} as ZohoLookups })),
    ).toMatchObject({
      ok: false,
      reason: 'MISSING_FIELD',
      field: 'lookups',
    });
  });
});
