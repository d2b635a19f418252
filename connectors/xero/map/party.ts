import type { Address, Contact, CustomerDetailsInput, TaxIdentifier } from '../../../src/billing/schemas/customer.js';
import {
  buyerIdFor,
  countryCodeOf,
  stateOfGstin,
  withOrganisationDefaults,
  nonBlank,
} from '../../../src/mapping/index.js';
import type { XeroLookups } from '../streams/lookups.js';
import type { XeroAddress, XeroContact, XeroPhone } from '../schemas.js';

/**
 * The buyer: a Xero contact (full from GET /Contacts, or the summary embedded in documents;
 * https://developer.xero.com/documentation/api/accounting/contacts) → billing CustomerDetails: tax
 * numbers, country codes, addresses, phones. Shared by the invoice, credit-note and customer mappers.
 */

/**
 * Xero keeps one free-text `TaxNumber` per contact (ABN, GST No., VAT No.;
 * https://developer.xero.com/documentation/api/accounting/contacts). Classified:
 * - a 15-character GSTIN (2-digit state code, PAN, entity, 'Z', check) → GSTIN, plus the PAN inside it
 *   (characters 3–12 of every GSTIN are the holder's PAN);
 * - two letters followed by 8–12 letters/digits (EU/UK VAT: GB123456789, DE123456789) → VAT;
 * - anything else (Australian ABN, US EIN, ...) → OTHER.
 * Spaces are removed and letters upper-cased first.
 */
const GSTIN = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
const VAT = /^[A-Z]{2}[0-9A-Z]{8,12}$/;

export function taxIdentifiersOf(taxNumber: string | null | undefined): TaxIdentifier[] {
  const value = (taxNumber ?? '').replace(/[\s-]/g, '').toUpperCase();
  if (value === '') return [];
  if (GSTIN.test(value))
    return [
      { value, type: 'GSTIN' },
      { value: value.slice(2, 12), type: 'PAN' },
    ];
  if (VAT.test(value)) return [{ value, type: 'VAT' }];
  return [{ value: (taxNumber ?? '').trim(), type: 'OTHER' }];
}

export function gstinOf(taxNumber: string | null | undefined): string | undefined {
  return taxIdentifiersOf(taxNumber).find((t) => t.type === 'GSTIN')?.value;
}

function address(a: XeroAddress): Address | undefined {
  const line2 = [a.AddressLine2, a.AddressLine3, a.AddressLine4]
    .map(nonBlank)
    .filter((x): x is string => x !== undefined)
    .join(', ');
  const out: Address = {};
  const set = (k: keyof Address, v: string | undefined) => {
    if (v) out[k] = v;
  };
  set('line1', nonBlank(a.AddressLine1));
  set('line2', line2 || undefined);
  set('city', nonBlank(a.City));
  set('state', nonBlank(a.Region));
  set('country', nonBlank(a.Country));
  set('zipCode', nonBlank(a.PostalCode));
  return Object.keys(out).length ? out : undefined;
}

function phone(p: XeroPhone): string | undefined {
  const number = nonBlank(p.PhoneNumber);
  if (!number) return undefined;
  const cc = nonBlank(p.PhoneCountryCode);
  return [cc ? `+${cc.replace(/^\+/, '')}` : undefined, nonBlank(p.PhoneAreaCode), number].filter(Boolean).join(' ');
}

/**
 * A contact → CustomerDetails.
 * - buyerId from the connection and ContactID; erpId = ContactID; name = Name.
 * - taxIdentifiers from TaxNumber (taxIdentifiersOf above); stateCode = the GSTIN's state ("KA") when
 *   there is one.
 * - addresses: every non-empty Addresses[] entry (line2 joins AddressLine2–4); registeredAddress = the
 *   STREET address, else the POBOX one; countryCode from its Country.
 * - primaryPhone: DEFAULT phone, else MOBILE/DDI, as "+91 80 41234567"; primaryEmail = EmailAddress;
 *   customerContactPerson = FirstName LastName.
 * - contactsData: the contact's own person when name, email AND phone are all known (role "Primary
 *   contact"). Xero's ContactPersons carry no phone and no id, so they would be incomplete Contacts and
 *   are left out rather than padded with ''.
 * - ContactStatus ARCHIVED → customerStatus INACTIVE; currency = DefaultCurrency; isManuallyCreated
 *   false (the record comes from the ERP, not from a person in billing).
 * - Where the contact names no country or currency: the organisation's CountryCode and BaseCurrency
 *   (src/mapping/organisation-defaults.ts; Xero invoices such a contact in the base currency:
 *   https://developer.xero.com/documentation/api/accounting/contacts, DefaultCurrency). The
 *   organisation's region is not read, so no state is inferred.
 */
export function customerDetailsOf(
  contact: XeroContact,
  connectionId: string,
  lookups: Pick<XeroLookups, 'baseCurrency' | 'countryCode'>,
): CustomerDetailsInput {
  const details: CustomerDetailsInput = {
    buyerId: buyerIdFor(connectionId, contact.ContactID),
    erpId: contact.ContactID,
    isManuallyCreated: false,
  };
  const name = nonBlank(contact.Name);
  if (name) details.name = name;
  const ids = taxIdentifiersOf(contact.TaxNumber);
  if (ids.length) details.taxIdentifiers = ids;
  const gstin = gstinOf(contact.TaxNumber);
  const state = gstin ? stateOfGstin(gstin) : undefined;
  if (state) details.stateCode = state.code;

  const raw = contact.Addresses ?? [];
  const mapped = raw
    .map((a) => ({ type: a.AddressType, a: address(a) }))
    .filter((x): x is { type: string | null | undefined; a: Address } => x.a !== undefined);
  if (mapped.length) details.addresses = mapped.map((x) => x.a);
  const registered = mapped.find((x) => x.type === 'STREET') ?? mapped[0];
  if (registered) {
    details.registeredAddress = registered.a;
    // Country is free text ("India", sometimes "IN"; https://developer.xero.com/documentation/api/accounting/contacts).
    const code = countryCodeOf(registered.a.country);
    if (code) details.countryCode = code;
    if (registered.a.country) details.country = registered.a.country;
  }

  const phones = contact.Phones ?? [];
  const primaryPhone = ['DEFAULT', 'MOBILE', 'DDI', 'OFFICE']
    .map((t) => phones.find((p) => p.PhoneType === t))
    .map((p) => (p ? phone(p) : undefined))
    .find(Boolean);
  if (primaryPhone) details.primaryPhone = primaryPhone;
  const email = nonBlank(contact.EmailAddress);
  if (email) details.primaryEmail = email;
  const person = [nonBlank(contact.FirstName), nonBlank(contact.LastName)].filter(Boolean).join(' ');
  if (person) details.customerContactPerson = person;
  if (person && email && primaryPhone) {
    const primary: Contact = {
      id: contact.ContactID,
      name: person,
      primaryPhone,
      primaryEmail: email,
      role: 'Primary contact',
    };
    details.contactsData = [primary];
  }
  const currency = nonBlank(contact.DefaultCurrency)?.toUpperCase();
  if (currency && /^[A-Z]{3}$/.test(currency)) details.currency = currency;
  if (contact.ContactStatus === 'ARCHIVED') details.customerStatus = 'INACTIVE';
  return withOrganisationDefaults(details, { countryCode: lookups.countryCode, currency: lookups.baseCurrency });
}
