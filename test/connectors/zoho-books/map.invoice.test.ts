import { describe, expect, it } from 'vitest';
import { mapZohoInvoice } from '../../../connectors/zoho-books/index.js';
import { fixture, mapContext, record } from './fixtures.js';

describe('mapZohoInvoice: fixtures → the exact billing body', () => {
  it.each([
    ['invoice-intra-state', 'India intra-state (reference §5.1): CGST 9 + SGST 9 from the GST18 group, partially paid'],
    ['invoice-inter-state-igst', 'inter-state: IGST 18 on each line, paise rounded per line'],
    ['invoice-usd-in-inr-org', 'USD invoice in an INR organisation: exchange_rate 83.125 checked against bcy_total, item discount'],
    ['invoice-partially-paid', 'partially paid with payment, credits and a write-off'],
    ['invoice-void', 'void: mapped, with metaData.sourceStatus "void"'],
    ['invoice-entity-discount-before-tax', 'entity-level 10 % discount before tax, shipping, adjustment and round-off'],
  ])('given %s (%s), then the body is exactly the expected one', (name) => {
    const result = mapZohoInvoice(record(name, 'invoice'), mapContext());
    if (!result.ok) throw new Error(`${result.reason}: ${result.message}`);
    expect(result.value).toEqual({ kind: 'invoice', invoice: fixture(`${name}.expected`) });
  });

  it.each([
    ['invoice-inconsistent-total', 'AMOUNTS_INCONSISTENT', 'total'],
    ['invoice-usd-rate-one', 'FX_SUSPECT', 'exchange_rate'],
    ['invoice-usd-no-rate', 'FX_UNDERIVABLE', 'exchange_rate'],
  ])('given %s, then it is quarantined as %s (field %s) and never mapped', (name, reason, field) => {
    const result = mapZohoInvoice(record(name, 'invoice'), mapContext());
    expect(result).toMatchObject({ ok: false, reason, field });
  });
});
