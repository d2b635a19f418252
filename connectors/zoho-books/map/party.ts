import type { Address, Contact, CustomerDetailsInput, TaxIdentifier } from '../../../src/billing/schemas/index.js';
import {
  buyerIdFor,
  countryCodeOf,
  findIndianState,
  stateOfGstin,
  withOrganisationDefaults,
  type OrganisationDefaults,
  nonBlank,
} from '../../../src/mapping/index.js';
import { readOrganization } from '../streams/lookups.js';
import type { MapContext } from '../../../src/connector/types.js';
import type { ZohoAddress, ZohoContactPersonRef, ZohoInvoice } from '../schemas.js';
import type { Steps } from '../../../src/mapping/steps.js';

/**
 * The buyer, as a contact (https://github.com/fordez/zoho-books-mcp-server-openapi/blob/main/mcp_server/openapi-all/contacts.yml)
 * or as an invoice or credit note describes it: addresses, contact persons, GSTIN, country and state
 * codes. Shared by the invoice, credit-note and customer mappers.
 */
/** Zoho address → billing Address; undefined when it has no content at all. */
export function addressOf(a: ZohoAddress | null | undefined): Address | undefined {
  if (!a) return undefined;
  const fields = {
    line1: a.address,
    line2: a.street2,
    city: a.city,
    state: a.state,
    zipCode: a.zip,
    country: a.country,
  };
  const out = Object.fromEntries(
    Object.entries(fields).flatMap(([key, value]) => (nonBlank(value) ? [[key, nonBlank(value)]] : [])),
  ) as Address;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Billing then shipping address, without empties or an exact duplicate. */
export function addressesOf(...list: Array<ZohoAddress | null | undefined>): Address[] | undefined {
  const out: Address[] = [];
  for (const a of list.map(addressOf)) {
    if (a && !out.some((o) => JSON.stringify(o) === JSON.stringify(a))) out.push(a);
  }
  return out.length > 0 ? out : undefined;
}

/** Zoho contact persons → billing contacts (id, name, phone, email, role: all strings, possibly empty). */
export function contactsOf(persons: ZohoContactPersonRef[] | null | undefined): Contact[] | undefined {
  if (!persons || persons.length === 0) return undefined;
  return persons.map((p, i) => {
    const email = nonBlank(p.email) ?? nonBlank(p.contact_person_email) ?? '';
    const name =
      [p.salutation, p.first_name, p.last_name].map(nonBlank).filter(Boolean).join(' ') || email || `Contact ${i + 1}`;
    return {
      id: nonBlank(p.contact_person_id) ?? String(i + 1),
      name,
      primaryPhone: nonBlank(p.phone) ?? nonBlank(p.mobile) ?? '',
      primaryEmail: email,
      role: nonBlank(p.designation) ?? (p.is_primary_contact ? 'Primary contact' : 'Contact'),
    };
  });
}

/** Zoho's `gst_no` as billing tax identifiers (one GSTIN, upper-cased); undefined when blank. */
export function gstinIdentifiersOf(gstNo: string | null | undefined): TaxIdentifier[] | undefined {
  const v = nonBlank(gstNo)?.toUpperCase();
  return v ? [{ type: 'GSTIN', value: v }] : undefined;
}

/**
 * The customer's own state as a GST state code ("29"): from the GSTIN's first two digits, else from the
 * billing address's state (Indian addresses only). Undefined abroad.
 */
export function customerStateCode(
  gstNo: string | null | undefined,
  address: ZohoAddress | null | undefined,
  countryCode?: string,
): string | undefined {
  const fromGstin = nonBlank(gstNo) ? stateOfGstin(gstNo!) : undefined;
  if (fromGstin) return fromGstin.gstCode;
  if (countryCode !== undefined && countryCode !== 'IN') return undefined;
  return (findIndianState(nonBlank(address?.state_code)) ?? findIndianState(nonBlank(address?.state)))?.gstCode;
}

/** Country fields for CustomerDetails; an unrecognised name keeps `country` and warns (countryCode then takes billing's default). */
export function countryFields(
  address: ZohoAddress | null | undefined,
  warn: (m: string) => void,
): Pick<CustomerDetailsInput, 'country' | 'countryCode'> {
  const country = nonBlank(address?.country);
  if (!country) return {};
  const code = countryCodeOf(country);
  if (!code) warn(`country ${JSON.stringify(country)} is not recognised; countryCode left to the billing default`);
  return code ? { country, countryCode: code } : { country };
}

/** CustomerDetails from what an invoice or credit note says about its customer. */
export function customerOfDocument(
  s: Steps,
  doc: Pick<
    ZohoInvoice,
    | 'customer_id'
    | 'customer_name'
    | 'gst_no'
    | 'billing_address'
    | 'shipping_address'
    | 'currency_code'
    | 'contact_persons_associated'
  >,
  ctx: MapContext,
): CustomerDetailsInput {
  const country = countryFields(doc.billing_address, (m) => s.warn(`customer: ${m}`));
  const contacts = contactsOf(doc.contact_persons_associated);
  const registered = addressOf(doc.billing_address);
  const addresses = addressesOf(doc.billing_address, doc.shipping_address);
  const taxIdentifiers = gstinIdentifiersOf(doc.gst_no);
  const stateCode = customerStateCode(doc.gst_no, doc.billing_address, country.countryCode);
  const name = doc.customer_name?.trim() || undefined;
  return withOrganisationDefaults(
    {
      buyerId: buyerIdFor(ctx.connectionId, doc.customer_id!),
      isManuallyCreated: false,
      ...(name ? { name } : {}),
      ...(taxIdentifiers ? { taxIdentifiers } : {}),
      ...(registered ? { registeredAddress: registered } : {}),
      ...(addresses ? { addresses } : {}),
      ...(contacts ? { contactsData: contacts, customerContactPerson: contacts[0]!.name } : {}),
      ...(contacts?.[0]?.primaryEmail ? { primaryEmail: contacts[0].primaryEmail } : {}),
      ...(contacts?.[0]?.primaryPhone ? { primaryPhone: contacts[0].primaryPhone } : {}),
      ...(stateCode ? { stateCode } : {}),
      ...country,
      currency: doc.currency_code.trim().toUpperCase(),
      erpId: doc.customer_id!,
    },
    organisationDefaultsOf(ctx.lookups),
  );
}

/**
 * The organisation's side of a silent contact (src/mapping/organisation-defaults.ts): its country
 * (`GET /organizations` `country`), base currency (`currency_code`) and state as a GST code ("29"), the
 * form a contact's state takes here. https://www.zoho.com/books/api/v3/organizations/
 */
export function organisationDefaultsOf(lookups: unknown): OrganisationDefaults {
  const org = readOrganization(lookups);
  if (!org) return {};
  return {
    countryCode: org.countryCode,
    currency: org.baseCurrency,
    stateCode: findIndianState(org.stateCode)?.gstCode,
  };
}
