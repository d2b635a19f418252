/** Expected customerDetails of the fixture customers (shared by the mapper tables). */
export const KAVERI = {
  buyerId: 'cust.qbo-in.12',
  erpId: '12',
  name: 'Kaveri Textiles Pvt Ltd',
  isManuallyCreated: false,
  customerStatus: 'LIVE',
  metaData: {
    sourceSystem: 'quickbooks',
    sourceStatus: 'active',
    sourceVersion: '2025-01-15T06:00:00.000Z',
    syncToken: '3',
    gstRegistrationType: 'GST_REG_REG',
  },
  taxIdentifiers: [
    { type: 'GSTIN', value: '29AABCK1234F1Z5' },
    { type: 'PAN', value: 'AABCK1234F' },
  ],
  registeredAddress: { line1: '14 Residency Road', line2: 'Shanthala Nagar', city: 'Bengaluru', state: 'KA', country: 'India', zipCode: '560025' },
  addresses: [{ line1: '14 Residency Road', line2: 'Shanthala Nagar', city: 'Bengaluru', state: 'KA', country: 'India', zipCode: '560025' }],
  stateCode: 'KA',
  country: 'India',
  countryCode: 'IN',
  currency: 'INR',
  primaryEmail: 'ap@kaveri.example',
  primaryPhone: '+91 98450 12345',
  customerContactPerson: 'Asha Iyer',
  contactsData: [{ id: '12-primary', name: 'Asha Iyer', primaryPhone: '+91 98450 12345', primaryEmail: 'ap@kaveri.example', role: 'primary' }],
};

/** Kaveri as only an invoice's CustomerRef (no customer record attached, no addresses). */
export const KAVERI_BY_REF = {
  buyerId: 'cust.qbo-in.12',
  erpId: '12',
  name: 'Kaveri Textiles Pvt Ltd',
  isManuallyCreated: false,
  // The document names no address: country, currency and state are the company's (CompanyInfo, Preferences).
  countryCode: 'IN',
  currency: 'INR',
  stateCode: 'KA',
};

export const ACME = {
  buyerId: 'cust.qbo-in.44',
  erpId: '44',
  name: 'Acme Widgets Inc',
  isManuallyCreated: false,
  customerStatus: 'LIVE',
  metaData: { sourceSystem: 'quickbooks', sourceStatus: 'active', sourceVersion: '2024-10-01T03:30:00.000Z', syncToken: '0', gstRegistrationType: 'OVERSEAS' },
  registeredAddress: { line1: '500 Market Street', city: 'San Jose', state: 'CA', country: 'USA', zipCode: '95113' },
  addresses: [{ line1: '500 Market Street', city: 'San Jose', state: 'CA', country: 'USA', zipCode: '95113' }],
  stateCode: 'CA',
  country: 'USA',
  countryCode: 'US',
  currency: 'USD',
  primaryEmail: 'billing@acme.example',
};
