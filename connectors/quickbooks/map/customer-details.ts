import type { MapContext } from '../../../src/connector/types.js';
import type { Address, Contact, CustomerDetailsInput, TaxIdentifier } from '../../../src/billing/schemas/index.js';
import { buyerIdFor, mapFail, mapOk, type MapResult, parseTimestamp } from '../../../src/mapping/index.js';
import type { QboAddress, QboCustomer, QboRef } from '../schemas.js';
import { countryCodeOf, sameAddress, stateCodeOf, toAddress } from './address.js';
import type { QboLookups } from './lookups.js';

const GSTIN = /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
const PAN = /^[A-Z]{5}\d{4}[A-Z]$/;

/**
 * A QBO Customer → billing CustomerDetails (the customer body, and `customerDetails` in every invoice and
 * credit note).
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
export function customerDetailsOf(customer: QboCustomer, ctx: MapContext, lookups: QboLookups): MapResult<CustomerDetailsInput> {
  const warnings: string[] = [];
  const version = parseTimestamp(customer.MetaData.LastUpdatedTime, { field: 'Customer.MetaData.LastUpdatedTime' });
  if (!version.ok) return version;
  const person = [customer.GivenName, customer.MiddleName, customer.FamilyName]
    .map((s) => s?.trim())
    .filter(Boolean)
    .join(' ');
  const name = customer.DisplayName?.trim() || customer.CompanyName?.trim() || person || customer.FullyQualifiedName?.trim();
  if (!name) return mapFail('MISSING_FIELD', `customer ${customer.Id} has no DisplayName, CompanyName or name`, { field: 'DisplayName' });

  const taxIdentifiers: TaxIdentifier[] = [];
  const gstin = customer.GSTIN?.trim().toUpperCase();
  if (gstin) {
    if (GSTIN.test(gstin)) taxIdentifiers.push({ type: 'GSTIN', value: gstin });
    else warnings.push(`customer ${customer.Id}: GSTIN is not well-formed; not sent`);
  }
  const pan = customer.BusinessNumber?.trim().toUpperCase();
  if (pan) {
    if (PAN.test(pan)) taxIdentifiers.push({ type: 'PAN', value: pan });
    else warnings.push(`customer ${customer.Id}: BusinessNumber is not a PAN; not sent`);
  }

  const details: CustomerDetailsInput = {
    buyerId: buyerIdFor(ctx.connectionId, customer.Id),
    erpId: customer.Id,
    name,
    isManuallyCreated: false,
    customerStatus: customer.Active === false ? 'INACTIVE' : 'LIVE',
    metaData: {
      sourceSystem: 'quickbooks',
      sourceStatus: customer.Active === false ? 'inactive' : 'active',
      sourceVersion: version.value,
      ...(customer.SyncToken === undefined ? {} : { syncToken: customer.SyncToken }),
      ...(customer.GSTRegistrationType ? { gstRegistrationType: customer.GSTRegistrationType } : {}),
    },
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
    const contact: Contact = { id: `${customer.Id}-primary`, name: person || name, primaryPhone: phone, primaryEmail: email, role: 'primary' };
    details.contactsData = [contact];
  }
  return mapOk(details, warnings);
}

/**
 * customerDetails for a document whose customer record was not fetched (not found, or read alone):
 * what the document itself says — CustomerRef and its addresses and BillEmail.
 */
export function customerDetailsFromDocument(
  doc: { CustomerRef?: QboRef; BillAddr?: QboAddress; ShipAddr?: QboAddress; BillEmail?: { Address?: string } },
  ctx: MapContext,
): MapResult<CustomerDetailsInput> {
  const ref = doc.CustomerRef;
  if (!ref?.value) return mapFail('MISSING_FIELD', 'CustomerRef is missing', { field: 'CustomerRef' });
  const details: CustomerDetailsInput = {
    buyerId: buyerIdFor(ctx.connectionId, ref.value),
    erpId: ref.value,
    isManuallyCreated: false,
    ...(ref.name?.trim() ? { name: ref.name.trim() } : {}),
    ...addressFields(doc.BillAddr, doc.ShipAddr, false),
  };
  const email = doc.BillEmail?.Address?.trim();
  if (email) details.primaryEmail = email;
  return mapOk(details);
}

function addressFields(bill: QboAddress | undefined, ship: QboAddress | undefined, hasGstin: boolean): Partial<CustomerDetailsInput> {
  const out: Partial<CustomerDetailsInput> = {};
  const billing = toAddress(bill);
  const shipping = toAddress(ship);
  const addresses: Address[] = [];
  for (const a of [billing, shipping]) if (a && !addresses.some((x) => sameAddress(x, a))) addresses.push(a);
  if (billing) out.registeredAddress = billing;
  if (addresses.length) out.addresses = addresses;
  const main = bill ?? ship;
  const state = stateCodeOf(main);
  if (state) out.stateCode = state;
  const country = main?.Country?.trim();
  if (country) out.country = country;
  // An explicit country wins; a GSTIN means India; otherwise leave the field to the billing default.
  const code = countryCodeOf(country) ?? (hasGstin ? 'IN' : undefined);
  if (code) out.countryCode = code;
  return out;
}
