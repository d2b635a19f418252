import { makeGstin, makePan } from '../kit/gstin.js';
import {
  COMPANY_KINDS,
  COMPANY_WORDS,
  MIXED_FIRST_NAMES as FIRST_NAMES,
  MIXED_LAST_NAMES as LAST_NAMES,
} from '../kit/sample-names.js';
import { AUSTRALIAN_PLACES, FOREIGN_PLACES, INDIAN_PLACES, type Place } from './sample-places.js';
import type { SeededRandom } from '../kit/seeded-random.js';
import type { TenantProfile } from './tenants.js';
import { msDate } from './xero-date.js';
import type { XeroAddress, XeroContact, XeroPhone } from './xero-records.js';

/**
 * Contacts of one organisation: domestic customers (Indian ones with a GSTIN in TaxNumber, Australian ones
 * with an ABN), foreign customers (a VAT number or none) who are invoiced in foreign currency, a few
 * supplier-only contacts (for bills), some ARCHIVED (hidden unless includeArchived=true).
 */
export interface ContactSpec {
  name?: string;
  foreign?: boolean;
  supplierOnly?: boolean;
  archived?: boolean;
  taxNumber?: string | null;
  defaultCurrency?: string;
  /** Only the empty POBOX and STREET entries Xero returns for a contact nobody gave an address. */
  noAddress?: boolean;
}

function abn(rng: SeededRandom): string {
  return Array.from({ length: 11 }, (_, i) => String(i === 0 ? rng.int(1, 9) : rng.int(0, 9))).join('');
}

function address(type: XeroAddress['AddressType'], place: Place, rng: SeededRandom): XeroAddress {
  return type === 'POBOX'
    ? {
        AddressType: 'POBOX',
        AddressLine1: `PO Box ${rng.int(10, 9999)}`,
        City: place.city,
        Region: place.region,
        PostalCode: place.postalCode,
        Country: place.country,
      }
    : {
        AddressType: 'STREET',
        AddressLine1: `${rng.int(1, 250)} ${rng.pick(['Industrial Estate', 'MG Road', 'George Street', 'Park Avenue', 'Ring Road'])}`,
        AddressLine2: rng.chance(0.5) ? `Floor ${rng.int(1, 12)}` : '',
        City: place.city,
        Region: place.region,
        PostalCode: place.postalCode,
        Country: place.country,
      };
}

export function generateContact(
  rng: SeededRandom,
  tenant: TenantProfile,
  id: string,
  number: number,
  updatedMs: number,
  spec: ContactSpec = {},
): XeroContact {
  const foreign = spec.foreign ?? false;
  const domesticPlaces = tenant.countryCode === 'IN' ? INDIAN_PLACES : AUSTRALIAN_PLACES;
  const place = foreign ? rng.pick(FOREIGN_PLACES) : rng.pick(domesticPlaces);
  const name =
    spec.name ??
    `${rng.pick(COMPANY_WORDS)} ${rng.pick(COMPANY_KINDS)} ${rng.pick(tenant.countryCode === 'IN' && !foreign ? ['Pvt Ltd', 'LLP', 'Ltd'] : ['Pty Ltd', 'Inc', 'Ltd', 'GmbH'])}`;
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const domain =
    name
      .toLowerCase()
      .replace(/[^a-z]+/g, '')
      .slice(0, 16) || 'example';
  let taxNumber: string | undefined;
  if (spec.taxNumber !== undefined) taxNumber = spec.taxNumber ?? undefined;
  else if (!foreign && tenant.countryCode === 'IN' && place.gstState && rng.chance(0.9))
    taxNumber = makeGstin(place.gstState, makePan(rng, 'C', name.replace(/[^A-Z]/gi, '')[0] ?? 'X'));
  else if (!foreign && tenant.countryCode === 'AU' && rng.chance(0.8)) taxNumber = abn(rng);
  else if (foreign && place.country === 'United Kingdom') taxNumber = `GB${rng.int(100000000, 999999999)}`;
  else if (foreign && place.country === 'Germany') taxNumber = `DE${rng.int(100000000, 999999999)}`;
  const phones: XeroPhone[] = [
    {
      PhoneType: 'DEFAULT',
      PhoneNumber: String(rng.int(20000000, 99999999)),
      PhoneAreaCode: place.phoneArea,
      PhoneCountryCode: place.phoneCountry,
    },
    { PhoneType: 'MOBILE', PhoneNumber: '', PhoneAreaCode: '', PhoneCountryCode: '' },
    { PhoneType: 'FAX', PhoneNumber: '', PhoneAreaCode: '', PhoneCountryCode: '' },
  ];
  if (rng.chance(0.15)) phones[0] = { PhoneType: 'DEFAULT', PhoneNumber: '', PhoneAreaCode: '', PhoneCountryCode: '' };
  const addresses: XeroAddress[] = [address('POBOX', place, rng), address('STREET', place, rng)];
  if (rng.chance(0.2)) addresses[0] = { AddressType: 'POBOX' };
  if (spec.noAddress) addresses.splice(0, addresses.length, { AddressType: 'POBOX' }, { AddressType: 'STREET' });
  const contact: XeroContact = {
    ContactID: id,
    ContactNumber: `C-${String(number).padStart(4, '0')}`,
    ContactStatus: spec.archived ? 'ARCHIVED' : 'ACTIVE',
    Name: name,
    FirstName: first,
    LastName: last,
    EmailAddress: `${first.toLowerCase()}.${last.toLowerCase()}@${domain}.example`,
    ContactPersons: rng.chance(0.4)
      ? [
          {
            FirstName: rng.pick(FIRST_NAMES),
            LastName: rng.pick(LAST_NAMES),
            EmailAddress: `accounts@${domain}.example`,
            IncludeInEmails: true,
          },
        ]
      : [],
    Addresses: addresses,
    Phones: phones,
    IsSupplier: spec.supplierOnly ?? false,
    IsCustomer: !(spec.supplierOnly ?? false),
    HasValidationErrors: false,
    UpdatedDateUTC: msDate(updatedMs),
  };
  if (taxNumber) contact.TaxNumber = taxNumber;
  const currency = spec.defaultCurrency ?? (foreign ? tenant.foreignCurrencies[0]?.[0] : undefined);
  if (currency) contact.DefaultCurrency = currency;
  return contact;
}
