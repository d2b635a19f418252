import { describe, expect, it } from 'vitest';
import type { MapContext } from '../../../../src/connector/types.js';
import { toCustomer } from '../../../../connectors/xero/map/customer.js';
import { CustomerCreateBody } from '../../../../src/billing/schemas/customer.js';
import { contactRecords } from '../fixtures.js';

const ctx: MapContext = {
  connectionId: 'xero-in',
  originSource: 'EXTERNAL_SYSTEM_C',
  baseCurrency: 'INR',
  lookups: {},
};

function customerOf(result: ReturnType<typeof toCustomer>) {
  if (!result.ok || result.value.kind !== 'customer') throw new Error(result.ok ? 'not a customer' : result.message);
  expect(() =>
    CustomerCreateBody.parse(result.value.kind === 'customer' ? result.value.customer : undefined),
  ).not.toThrow();
  return result.value.customer;
}

describe('Xero contact mapping', () => {
  const supplier = contactRecords()[3]!;

  it('given a supplier-only contact, then the mapper does not judge it: whether a contact is for billing is decided once, by the customers stream (notForBilling, test/connectors/xero/streams/customers.test.ts), before any mapping', () => {
    expect(supplier.raw).toMatchObject({ IsSupplier: true, IsCustomer: false });
    expect(customerOf(toCustomer(supplier, ctx)).erpId).toBe(supplier.id);
  });
});
