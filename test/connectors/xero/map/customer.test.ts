import { describe, expect, it } from 'vitest';
import type { MapContext } from '../../../../src/connector/types.js';
import { toCustomer } from '../../../../connectors/xero/map/customer.js';
import { CustomerCreateBody } from '../../../../src/billing/schemas/customer.js';
import { contactRecords } from '../fixtures.js';

const ctx: MapContext = { connectionId: 'xero-in', originSource: 'EXTERNAL_SYSTEM_C', baseCurrency: 'INR', lookups: {} };

function customerOf(result: ReturnType<typeof toCustomer>) {
  if (!result.ok || result.value.kind !== 'customer') throw new Error(result.ok ? 'not a customer' : result.message);
  expect(() => CustomerCreateBody.parse(result.value.kind === 'customer' ? result.value.customer : undefined)).not.toThrow();
  return result.value.customer;
}

describe('Xero contact mapping', () => {
  const [kaveri, harbour, coral, supplier] = contactRecords() as [
    ReturnType<typeof contactRecords>[number],
    ReturnType<typeof contactRecords>[number],
    ReturnType<typeof contactRecords>[number],
    ReturnType<typeof contactRecords>[number],
  ];

  it('given an Indian customer with a GSTIN, two addresses and a phone, then the body has GSTIN, PAN, state, addresses and a complete primary contact', () => {
    expect(customerOf(toCustomer(kaveri, ctx))).toEqual({
      buyerId: 'cust.xero-in.3c9e1f2a-4b5c-4d6e-8f70-1a2b3c4d5e6f',
      erpId: '3c9e1f2a-4b5c-4d6e-8f70-1a2b3c4d5e6f',
      isManuallyCreated: false,
      name: 'Kaveri Analytics Pvt Ltd',
      taxIdentifiers: [
        { value: '29AABCK1234F1Z5', type: 'GSTIN' },
        { value: 'AABCK1234F', type: 'PAN' },
      ],
      stateCode: 'KA',
      addresses: [
        { line1: 'PO Box 5520', city: 'Bengaluru', state: 'Karnataka', country: 'India', zipCode: '560001' },
        { line1: '42 MG Road', line2: 'Floor 3, Brigade Towers', city: 'Bengaluru', state: 'Karnataka', country: 'India', zipCode: '560001' },
      ],
      registeredAddress: { line1: '42 MG Road', line2: 'Floor 3, Brigade Towers', city: 'Bengaluru', state: 'Karnataka', country: 'India', zipCode: '560001' },
      countryCode: 'IN',
      country: 'India',
      primaryPhone: '+91 80 41234567',
      primaryEmail: 'asha.iyer@kaveri.example',
      customerContactPerson: 'Asha Iyer',
      // ContactPersons (Rohan Nair) have no phone and no id in Xero: left out rather than padded.
      contactsData: [
        {
          id: '3c9e1f2a-4b5c-4d6e-8f70-1a2b3c4d5e6f',
          name: 'Asha Iyer',
          primaryPhone: '+91 80 41234567',
          primaryEmail: 'asha.iyer@kaveri.example',
          role: 'Primary contact',
        },
      ],
      currency: 'INR',
      metaData: { sourceSystem: 'xero', sourceStatus: 'ACTIVE', sourceVersion: '2025-03-06T09:15:30.250Z', erpNumber: 'C-0042' },
    });
  });

  it('given a UK customer with a spaced VAT number and an empty PO box, then VAT, the street address and GB', () => {
    expect(customerOf(toCustomer(harbour, ctx))).toEqual({
      buyerId: 'cust.xero-in.4d0f2a3b-5c6d-4e7f-8a9b-0c1d2e3f4a5b',
      erpId: '4d0f2a3b-5c6d-4e7f-8a9b-0c1d2e3f4a5b',
      isManuallyCreated: false,
      name: 'Harbour Retail Ltd',
      taxIdentifiers: [{ value: 'GB123456789', type: 'VAT' }],
      addresses: [{ line1: '1 Long Lane', city: 'London', country: 'United Kingdom', zipCode: 'EC1A 1BB' }],
      registeredAddress: { line1: '1 Long Lane', city: 'London', country: 'United Kingdom', zipCode: 'EC1A 1BB' },
      countryCode: 'GB',
      country: 'United Kingdom',
      primaryEmail: 'ap@harbour.example',
      currency: 'GBP',
      metaData: { sourceSystem: 'xero', sourceStatus: 'ACTIVE', sourceVersion: '2025-03-06T09:15:31.000Z', erpNumber: 'C-0043' },
    });
  });

  it('given an ARCHIVED contact with an ABN, then it is INACTIVE (not deleted) with an OTHER tax id', () => {
    expect(coral.deleted).toBeUndefined();
    expect(customerOf(toCustomer(coral, ctx))).toEqual({
      buyerId: 'cust.xero-in.5e1a3b4c-6d7e-4f80-9a1b-2c3d4e5f6a7b',
      erpId: '5e1a3b4c-6d7e-4f80-9a1b-2c3d4e5f6a7b',
      isManuallyCreated: false,
      name: 'Coral Foods Pty Ltd',
      taxIdentifiers: [{ value: '51824753556', type: 'OTHER' }],
      customerContactPerson: 'Liam Brown',
      customerStatus: 'INACTIVE',
      countryCode: 'IN',
      currency: 'INR',
      metaData: { sourceSystem: 'xero', sourceStatus: 'ARCHIVED', sourceVersion: '2025-03-06T09:15:32.000Z', erpNumber: 'C-0044' },
    });
  });

  it('given a supplier-only contact, then the mapper does not judge it: whether a contact is for billing is decided once, by the customers stream (notForBilling, test/connectors/xero/streams/customers.test.ts), before any mapping', () => {
    expect(supplier.raw).toMatchObject({ IsSupplier: true, IsCustomer: false });
    expect(customerOf(toCustomer(supplier, ctx)).erpId).toBe(supplier.id);
  });
});
