import { describe, expect, it } from 'vitest';
import { listFilters, outsideSelection, type Selection } from '../../src/connector/selection.js';
import { creditNoteSelection } from '../../connectors/xero/streams/credit-notes.js';
import { contactSelection as xeroContactSelection } from '../../connectors/xero/streams/customers.js';
import { invoiceSelection } from '../../connectors/xero/streams/invoices.js';
import { whereFor } from '../../connectors/xero/streams/where-clause.js';
import { contactSelection } from '../../connectors/zoho-books/streams/customers.js';
import { listParamsOf } from '../../connectors/zoho-books/streams/read.js';
import { sourceRecordOf } from '../../src/connector/define-stream.js';

/**
 * One selection table per stream: what its list read asks the vendor to filter by, and what every record
 * (listed or read by id) is checked against. Record shapes as the vendors document them:
 * Xero `Type` (https://developer.xero.com/documentation/api/accounting/types#invoices and
 * #credit-notes), Xero contacts' `IsSupplier`/`IsCustomer`
 * (https://developer.xero.com/documentation/api/accounting/contacts), Zoho `contact_type`
 * (https://www.zoho.com/books/api/v3/contacts/).
 */
describe('a stream selection', () => {
  it('given Xero documents of each type, then the sales ones are taken and the supplier ones say what they are', () => {
    expect(outsideSelection(invoiceSelection, { Type: 'ACCREC' } as never)).toBeUndefined();
    expect(outsideSelection(invoiceSelection, { Type: 'ACCPAY' } as never)).toBe(
      'a bill, not a sales invoice (Type ACCPAY)',
    );
    expect(outsideSelection(creditNoteSelection, { Type: 'ACCRECCREDIT' } as never)).toBeUndefined();
    expect(outsideSelection(creditNoteSelection, { Type: 'ACCPAYCREDIT' } as never)).toBe(
      'a supplier credit note, not a sales one (Type ACCPAYCREDIT)',
    );
  });

  it('given the same tables, then the list reads send them as the vendor’s filter: Xero `where`, Zoho a parameter', () => {
    expect(whereFor(listFilters(invoiceSelection), {})).toBe('Type=="ACCREC"');
    expect(whereFor(listFilters(creditNoteSelection), { window: { from: '2026-02-01', to: '2026-02-28' } }, 'X')).toBe(
      'Type=="ACCRECCREDIT" AND X AND Date>=DateTime(2026,02,01) AND Date<=DateTime(2026,02,28)',
    );
    expect(listParamsOf(contactSelection, 'customers')).toEqual({ contact_type: 'customer' });
  });

  it('given a Zoho vendor read by id, then it is not for billing; a customer, or a record that does not say, is taken', () => {
    expect(outsideSelection(contactSelection, { contact_type: 'vendor' })).toBe(
      'a vendor, not a customer (contact_type vendor)',
    );
    expect(outsideSelection(contactSelection, { contact_type: 'Customer' })).toBeUndefined();
    expect(outsideSelection(contactSelection, {})).toBeUndefined();
  });

  it('given a row of several values, then the Xero filter joins them with OR, and a Zoho list filter refuses it at once', () => {
    const two: Selection<unknown> = [{ field: 'Type', takes: ['A', 'B'], otherwise: 'other', listFilter: true }];
    expect(whereFor(listFilters(two), {})).toBe('(Type=="A" OR Type=="B")');
    expect(() => listParamsOf(two as Selection<Record<string, unknown>>, 'x')).toThrow(/takes one value/);
  });

  it('given a Xero contact that is only a supplier, when the engine makes its record, then it is notForBilling; one that is both, or neither, is taken', () => {
    const rules = {
      primaryKey: 'ContactID',
      statusOf: () => 'ACTIVE',
      selection: xeroContactSelection as Selection<Record<string, unknown>>,
    };
    const record = (flags: object) =>
      sourceRecordOf(rules, { raw: { ContactID: 'c', ...flags }, version: '2026-02-01T00:00:00.000Z' });
    expect(record({ IsSupplier: true, IsCustomer: false }).notForBilling).toBe('a supplier only, not a customer');
    expect(record({ IsSupplier: true, IsCustomer: true }).notForBilling).toBeUndefined();
    expect(record({}).notForBilling).toBeUndefined();
  });
});
