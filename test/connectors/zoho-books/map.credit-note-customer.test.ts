import { describe, expect, it } from 'vitest';
import { mapZohoContact, mapZohoCreditNote } from '../../../connectors/zoho-books/index.js';
import { fixture, mapContext, record } from './fixtures.js';

describe('mapZohoCreditNote', () => {
  it('given a credit note applied to two invoices, then the body lists both applications by billing invoiceId and number', () => {
    const result = mapZohoCreditNote(record('credit-note-two-invoices', 'creditnote'), mapContext());
    if (!result.ok) throw new Error(`${result.reason}: ${result.message}`);
    expect(result.value).toEqual({ kind: 'credit-note', creditNote: fixture('credit-note-two-invoices.expected') });
  });
});

describe('mapZohoContact', () => {
  it('given a business customer with two contact persons, then the primary person comes first and GSTIN, addresses and status map', () => {
    const result = mapZohoContact(record('contact-business', 'contact'), mapContext());
    if (!result.ok) throw new Error(`${result.reason}: ${result.message}`);
    expect(result.value).toEqual({ kind: 'customer', customer: fixture('contact-business.expected') });
  });
});
