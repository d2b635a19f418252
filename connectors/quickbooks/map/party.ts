import type { Address, Contact, CustomerDetailsInput, TaxIdentifier } from '../../../src/billing/schemas/index.js';
import type { MapContext } from '../../../src/connector/types.js';
import {
  buyerIdFor,
  countryCodeOf,
  findIndianState,
  mapFail,
  parseTimestamp,
  withOrganisationDefaults,
  type OrganisationDefaults,
  nonBlank,
  sourceMeta,
} from '../../../src/mapping/index.js';
import type { Steps } from '../../../src/mapping/steps.js';
import type { QboAddress, QboCustomer, QboRef } from '../schemas.js';
import type { QboLookups } from '../streams/lookups.js';

/**
 * The buyer: a QBO Customer (the customer body, and `customerDetails` in every invoice and credit note),
 * or what a document says about its customer when the Customer record was not fetched. Fields:
 * https://github.com/intuit/QuickBooks-V3-Java-SDK (ipp-v3-java-data/src/main/xsd/Finance.xsd).
 */
const GSTIN = /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
const PAN = /^[A-Z]{5}\d{4}[A-Z]$/;

/**
 * A QBO Customer → billing CustomerDetails.
 * - buyerId = buyerIdFor(connection, Id); erpId = Id; name = DisplayName (else CompanyName, else the
 *   person's name); alias = CompanyName when it differs.
 * - taxIdentifiers: `GSTIN` → GSTIN, `BusinessNumber` (PAN in India) → PAN, each only when well-formed
 *   (a malformed one is left out with a warning rather than sent as an identifier).
 * - `GSTRegistrationType` (GST_REG_REG, GST_REG_COMP, GST_UNREG, CONSUMER, OVERSEAS, SEZ, DEEMED) →
 *   metaData.gstRegistrationType: the billing model has no field for it.
 * - Inactive (`Active: false`, QBO's "deleted") → customerStatus INACTIVE and sourceStatus 'inactive':
 *   a status, never a delete.
 * - One contact (the primary) only when name, phone and email are all present: the billing Contact
 *   needs every field, and we do not invent empty ones.
 */
export function customerOf(
  s: Steps,
  customer: QboCustomer,
  ctx: MapContext<unknown>,
  lookups: QboLookups,
): CustomerDetailsInput {
  const version = s.take(
    parseTimestamp(customer.MetaData.LastUpdatedTime, { field: 'Customer.MetaData.LastUpdatedTime' }),
  );
  const person = [customer.GivenName, customer.MiddleName, customer.FamilyName]
    .map((v) => v?.trim())
    .filter(Boolean)
    .join(' ');
  const name =
    customer.DisplayName?.trim() || customer.CompanyName?.trim() || person || customer.FullyQualifiedName?.trim();
  if (!name)
    s.fail(
      mapFail('MISSING_FIELD', `customer ${customer.Id} has no DisplayName, CompanyName or name`, {
        field: 'DisplayName',
      }),
    );

  const taxIdentifiers: TaxIdentifier[] = [];
  const gstin = customer.GSTIN?.trim().toUpperCase();
  if (gstin) {
    if (GSTIN.test(gstin)) taxIdentifiers.push({ type: 'GSTIN', value: gstin });
    else s.warn(`customer ${customer.Id}: GSTIN is not well-formed; not sent`);
  }
  const pan = customer.BusinessNumber?.trim().toUpperCase();
  if (pan) {
    if (PAN.test(pan)) taxIdentifiers.push({ type: 'PAN', value: pan });
    else s.warn(`customer ${customer.Id}: BusinessNumber is not a PAN; not sent`);
  }

  const details: CustomerDetailsInput = {
    buyerId: buyerIdFor(ctx.connectionId, customer.Id),
    erpId: customer.Id,
    name,
    isManuallyCreated: false,
    customerStatus: customer.Active === false ? 'INACTIVE' : 'LIVE',
    metaData: sourceMeta({
      system: 'quickbooks',
      status: customer.Active === false ? 'inactive' : 'active',
      version,
      syncToken: customer.SyncToken,
      gstRegistrationType: customer.GSTRegistrationType || undefined,
    }),
  };
  const company = customer.CompanyName?.trim();
  if (company && company !== name) details.alias = company;
  if (taxIdentifiers.length) details.taxIdentifiers = taxIdentifiers;
  Object.assign(details, addressFields(customer.BillAddr, customer.ShipAddr, gstin !== undefined && GSTIN.test(gstin)));
  const currency = (customer.CurrencyRef?.value ?? lookups.homeCurrency)?.trim().toUpperCase();
  if (currency) details.currency = currency;

  const email = customer.PrimaryEmailAddr?.Address?.trim();
  const phone = (customer.PrimaryPhone?.FreeFormNumber ?? customer.Mobile?.FreeFormNumber)?.trim();
  if (email) details.primaryEmail = email;
  if (phone) details.primaryPhone = phone;
  if (person) details.customerContactPerson = person;
  if (email && phone) {
    const contact: Contact = {
      id: `${customer.Id}-primary`,
      name: person || name,
      primaryPhone: phone,
      primaryEmail: email,
      role: 'primary',
    };
    details.contactsData = [contact];
  }
  return withOrganisationDefaults(details, organisationDefaultsOf(lookups));
}

/**
 * The company's side of a silent customer record (src/mapping/organisation-defaults.ts): CompanyInfo's
 * Country (QBO writes a code, "US", "AU", "IN"), Preferences' HomeCurrency, and CompanyAddr's state in
 * the same form a customer's state takes ("Karnataka" → "KA" in India, as written elsewhere).
 * https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/companyinfo
 */
export function organisationDefaultsOf(lookups: QboLookups): OrganisationDefaults {
  const countryCode = countryCodeOf(lookups.companyCountry, 'known');
  const state = lookups.companyState?.trim();
  const stateCode = state
    ? isIndia(lookups.companyCountry)
      ? (findIndianState(state)?.code ?? state)
      : state
    : undefined;
  return { countryCode, currency: lookups.homeCurrency, stateCode };
}

/**
 * customerDetails for a document whose customer record was not fetched (not found, or read alone):
 * what the document itself says — CustomerRef and its addresses and BillEmail — with the document's
 * currency as the customer's (QBO only lets a customer transact in its own currency:
 * https://quickbooks.intuit.com/learn-support/en-us/help-article/multicurrency/use-multicurrency-quickbooks-online/L7ig6Rpbn_US_en_US),
 * and the company's country and currency where the document is silent.
 */
export function customerOfDocument(
  s: Steps,
  doc: { CustomerRef?: QboRef; BillAddr?: QboAddress; ShipAddr?: QboAddress; BillEmail?: { Address?: string } },
  ctx: MapContext<unknown>,
  lookups: QboLookups,
  currency: string | undefined,
): CustomerDetailsInput {
  const ref = doc.CustomerRef;
  if (!ref?.value) return s.fail(mapFail('MISSING_FIELD', 'CustomerRef is missing', { field: 'CustomerRef' }));
  const details: CustomerDetailsInput = {
    buyerId: buyerIdFor(ctx.connectionId, ref.value),
    erpId: ref.value,
    isManuallyCreated: false,
    ...(ref.name?.trim() ? { name: ref.name.trim() } : {}),
    ...addressFields(doc.BillAddr, doc.ShipAddr, false),
  };
  const email = doc.BillEmail?.Address?.trim();
  if (email) details.primaryEmail = email;
  if (currency) details.currency = currency;
  return withOrganisationDefaults(details, organisationDefaultsOf(lookups));
}

function addressFields(
  bill: QboAddress | undefined,
  ship: QboAddress | undefined,
  hasGstin: boolean,
): Partial<CustomerDetailsInput> {
  const out: Partial<CustomerDetailsInput> = {};
  const billing = addressOf(bill);
  const shipping = addressOf(ship);
  const addresses: Address[] = [];
  for (const a of [billing, shipping])
    if (a && !addresses.some((x) => JSON.stringify(x) === JSON.stringify(a))) addresses.push(a);
  if (billing) out.registeredAddress = billing;
  if (addresses.length) out.addresses = addresses;
  const main = bill ?? ship;
  const state = addressStateCode(main);
  if (state) out.stateCode = state;
  const country = main?.Country?.trim();
  if (country) out.country = country;
  // An explicit country wins; a GSTIN means India; otherwise leave the field to the billing default.
  const code = countryCodeOf(country, 'known') ?? (hasGstin ? 'IN' : undefined);
  if (code) out.countryCode = code;
  return out;
}

/**
 * QBO PhysicalAddress (`Line1..Line5, City, CountrySubDivisionCode, PostalCode, Country`) → billing Address.
 * Line2..Line5 are joined into line2 (the billing model has two lines). Undefined when empty.
 */
export function addressOf(a: QboAddress | undefined): Address | undefined {
  if (!a) return undefined;
  const rest = [a.Line2, a.Line3, a.Line4, a.Line5].map(nonBlank).filter((v): v is string => v !== undefined);
  const out: Address = {};
  const line1 = nonBlank(a.Line1);
  if (line1) out.line1 = line1;
  if (rest.length) out.line2 = rest.join(', ');
  const city = nonBlank(a.City);
  if (city) out.city = city;
  const state = nonBlank(a.CountrySubDivisionCode);
  if (state) out.state = state;
  const country = nonBlank(a.Country);
  if (country) out.country = country;
  const zip = nonBlank(a.PostalCode);
  if (zip) out.zipCode = zip;
  return Object.keys(out).length ? out : undefined;
}

/** An absent country counts as India only for an Indian company's documents (the caller checks that). */
export function isIndia(country: string | undefined): boolean {
  if (country === undefined || country.trim() === '') return true;
  return ['in', 'ind', 'india', 'bharat'].includes(country.trim().toLowerCase());
}

/** The state as a two-letter GST code for Indian addresses ("Maharashtra" → "MH"), else as written. */
function addressStateCode(a: QboAddress | undefined): string | undefined {
  const v = a?.CountrySubDivisionCode?.trim();
  if (!v) return undefined;
  return isIndia(a?.Country) ? (findIndianState(v)?.code ?? v) : v;
}
