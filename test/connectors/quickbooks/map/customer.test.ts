import { describe, expect, it } from 'vitest';
import { toCustomer } from '../../../../connectors/quickbooks/map/customer.js';
import { CustomerDetails } from '../../../../src/billing/schemas/index.js';
import { fixture, mapContext, sourceRecord } from '../fixtures.js';
import { KAVERI } from './expected-customers.js';

function mapped(raw: Record<string, unknown>) {
  const r = toCustomer(sourceRecord(raw), mapContext());
  if (!r.ok) throw new Error(`${r.reason}: ${r.message}`);
  if (r.value.kind !== 'customer') throw new Error('not a customer');
  expect(CustomerDetails.safeParse(r.value.customer).success).toBe(true);
  return { customer: r.value.customer, warnings: r.warnings ?? [] };
}

describe('QuickBooks customer → billing customer', () => {
  it('given a registered Indian business, then GSTIN and PAN (BusinessNumber) are tax identifiers and GSTRegistrationType is in metaData', () => {
    const { customer, warnings } = mapped(fixture('customer-registered'));
    expect(warnings).toEqual([]);
    expect(customer).toStrictEqual(KAVERI);
  });

  it('given an inactive customer (QBO "deleted"), then it is INACTIVE as a status; a malformed PAN is left out with a warning', () => {
    const { customer, warnings } = mapped(fixture('customer-inactive'));
    expect(customer).toStrictEqual({
      buyerId: 'cust.qbo-in.31',
      erpId: '31',
      name: 'Narmada Steel Pvt Ltd',
      isManuallyCreated: false,
      customerStatus: 'INACTIVE',
      metaData: {
        sourceSystem: 'quickbooks',
        sourceStatus: 'inactive',
        sourceVersion: '2025-02-01T13:15:10.000Z',
        syncToken: '7',
        gstRegistrationType: 'GST_REG_COMP',
      },
      taxIdentifiers: [{ type: 'GSTIN', value: '24AAECN4321K1ZX' }],
      registeredAddress: { line1: 'Survey 88, GIDC', city: 'Ahmedabad', state: 'GJ', zipCode: '380015', country: 'India' },
      addresses: [
        { line1: 'Survey 88, GIDC', city: 'Ahmedabad', state: 'GJ', zipCode: '380015', country: 'India' },
        { line1: 'Warehouse 4, Sanand', city: 'Ahmedabad', state: 'GJ', zipCode: '382110', country: 'India' },
      ],
      stateCode: 'GJ',
      country: 'India',
      countryCode: 'IN',
      currency: 'INR',
      primaryEmail: 'accounts@narmadasteel.example',
    });
    expect(warnings).toEqual(['customer 31: BusinessNumber is not a PAN; not sent']);
  });

  it('given a customer with no name at all, then MISSING_FIELD', () => {
    const raw = { Id: '5', MetaData: { LastUpdatedTime: '2025-01-01T00:00:00+05:30' } };
    expect(toCustomer(sourceRecord(raw), mapContext())).toMatchObject({ ok: false, reason: 'MISSING_FIELD' });
  });
});
