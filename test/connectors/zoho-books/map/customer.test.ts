import { describe, expect, it } from 'vitest';
import { toCustomer } from '../../../../connectors/zoho-books/map/customer.js';
import { mapContext, variant } from '../fixtures.js';

describe('toCustomer (map/customer.ts, map/party.ts)', () => {
  it('given an individual overseas customer without GSTIN, then no tax identifiers, no Indian state code, and the country code from the name', () => {
    const r = toCustomer(
      variant('contact-business', 'contact', (c) => {
        c.gst_no = '';
        c.gst_treatment = 'overseas';
        c.customer_sub_type = 'individual';
        c.company_name = '';
        c.status = 'inactive';
        c.billing_address = {
          address: '12 Rue de la République',
          city: 'Lyon',
          state: 'Auvergne-Rhône-Alpes',
          zip: '69002',
          country: 'France',
          state_code: '',
        };
        c.contact_persons = [];
      }),
      mapContext(),
    );
    if (!r.ok || r.value.kind !== 'customer') throw new Error('not mapped');
    const c = r.value.customer;
    expect(c.taxIdentifiers).toBeUndefined();
    expect(c.stateCode).toBeUndefined();
    expect(c.countryCode).toBe('FR');
    expect(c.customerStatus).toBe('INACTIVE');
    expect(c.alias).toBeUndefined();
    expect(c.primaryEmail).toBe('anil@kaveriprint.example');
  });
});
