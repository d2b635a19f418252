import { instantBetween, type GeneratorContext } from './generator-context.js';
import { makeGstin, makePan } from '../kit/gstin.js';
import { INDIA_STATES, OVERSEAS_COUNTRIES, stateByCode } from './india-states.js';
import {
  AREAS,
  COMPANY_FIRST,
  COMPANY_SECOND,
  COMPANY_SUFFIX,
  DEPARTMENTS,
  DESIGNATIONS,
  FIRST_NAMES,
  LAST_NAMES,
  OVERSEAS_COMPANIES,
  OVERSEAS_FIRST,
  OVERSEAS_LAST,
  STREETS,
} from '../kit/sample-names.js';
import type { SeededRandom } from '../kit/seeded-random.js';
import type { AddressRecord, ContactPersonRecord, ContactRecord, CurrencyCode } from './store-records.js';
import { addDays, localMidnight } from './zoho-timestamp.js';

/**
 * Customers (and a few vendors, so a list without `contact_type=customer` visibly mixes them in):
 * intra-state (KA, like the org), other states, overseas (USD/EUR, `gst_treatment: overseas`) and consumers.
 */
type Kind = 'home' | 'other' | 'overseas' | 'consumer';

export const PAYMENT_TERMS: readonly (readonly [days: number, label: string, weight: number])[] = [
  [0, 'Due on Receipt', 10],
  [15, 'Net 15', 30],
  [30, 'Net 30', 40],
  [45, 'Net 45', 10],
  [60, 'Net 60', 10],
];

export function pickPaymentTerms(random: SeededRandom): readonly [number, string] {
  const [days, label] = random.weighted(PAYMENT_TERMS.map((t) => [t, t[2]] as const));
  return [days, label];
}

interface Place {
  address: AddressRecord;
  stateCode: string;
  gstCode: string;
  currency: CurrencyCode;
}

function place(random: SeededRandom, kind: Kind, homeState: string, attention: string): Place {
  if (kind === 'overseas') {
    const country = random.pick(OVERSEAS_COUNTRIES);
    const [city, state, zip, phone] = random.pick(country.cities);
    const address = {
      attention,
      address: `${random.int(10, 980)} ${random.pick(['Main Street', 'Harbour Road', 'Kaiserstraße', 'Rue de la République', 'Market Street'])}`,
      street2: random.pick(['Suite 400', 'Floor 3', '']),
      city,
      state,
      state_code: '',
      zip,
      country: country.country,
      fax: '',
      phone,
    };
    return { address, stateCode: '', gstCode: '', currency: country.currency };
  }
  const state =
    kind === 'home' ? stateByCode(homeState) : random.pick(INDIA_STATES.filter((s) => s.code !== homeState));
  const [city, zip, phonePrefix] = random.pick(state.cities);
  const address = {
    attention,
    address: `No. ${random.int(1, 240)}, ${random.pick(STREETS)}`,
    street2: random.pick(AREAS),
    city,
    state: state.name,
    state_code: state.code,
    zip,
    country: 'India',
    fax: '',
    phone: `${phonePrefix}-${random.int(2000000, 4999999)}`,
  };
  return { address, stateCode: state.code, gstCode: state.gstCode, currency: 'INR' };
}

function person(
  ctx: GeneratorContext,
  random: SeededRandom,
  overseas: boolean,
  domain: string,
  primary: boolean,
): ContactPersonRecord {
  const first = overseas ? random.pick(OVERSEAS_FIRST) : random.pick(FIRST_NAMES);
  const last = overseas ? random.pick(OVERSEAS_LAST) : random.pick(LAST_NAMES);
  const local = `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, '');
  return {
    contact_person_id: ctx.masterIds.take(),
    salutation: random.pick(['Mr.', 'Ms.', 'Mrs.', 'Dr.', '']),
    first_name: first,
    last_name: last,
    email: `${local}@${domain}`,
    phone: overseas ? '' : `+91-80-${random.int(2000000, 4999999)}`,
    mobile: overseas ? '' : `+91-9${random.int(100000000, 999999999)}`,
    designation: random.pick(DESIGNATIONS),
    department: random.pick(DEPARTMENTS),
    is_primary_contact: primary,
  };
}

function uniqueName(used: Set<string>, make: () => string): string {
  for (let i = 0; i < 20; i++) {
    const name = make();
    if (!used.has(name)) return (used.add(name), name);
  }
  const name = `${make()} ${used.size + 1}`;
  used.add(name);
  return name;
}

export function generateContacts(
  ctx: GeneratorContext,
  random: SeededRandom,
  customers: number,
  vendors: number,
): ContactRecord[] {
  const org = ctx.organization;
  const used = new Set<string>();
  // A CSV import a few months before the range: its contacts share one created/modified second.
  const importMs = localMidnight(addDays(ctx.from, -200), org.offsetMinutes) + (10 * 3600 + 15 * 60) * 1000;
  const earliest = localMidnight(addDays(ctx.from, -400), org.offsetMinutes);
  const latestNew = localMidnight(addDays(ctx.from, 120), org.offsetMinutes);
  const contacts: ContactRecord[] = [];
  for (let i = 0; i < customers + vendors; i++) {
    const vendor = i >= customers;
    const kind: Kind = vendor
      ? random.pick(['home', 'other'] as const)
      : random.weighted([
          ['home', 38],
          ['other', 42],
          ['overseas', 12],
          ['consumer', 8],
        ] as const);
    const overseas = kind === 'overseas';
    const individual = kind === 'consumer';
    const personFirst = random.pick(FIRST_NAMES);
    const personLast = random.pick(LAST_NAMES);
    const name = individual
      ? uniqueName(used, () => `${personFirst} ${personLast}`)
      : overseas
        ? uniqueName(used, () => random.pick(OVERSEAS_COMPANIES))
        : uniqueName(
            used,
            () => `${random.pick(COMPANY_FIRST)} ${random.pick(COMPANY_SECOND)} ${random.pick(COMPANY_SUFFIX)}`,
          );
    const domain = `${
      name
        .toLowerCase()
        .replace(/[^a-z]+/g, '')
        .slice(0, 18) || 'customer'
    }.example`;
    const where = place(random, kind, org.state_code, individual ? name : 'Accounts Payable');
    // Most ship to the billing address; some to a warehouse elsewhere in the same city.
    const shipping = random.chance(0.8)
      ? { ...where.address }
      : {
          ...where.address,
          attention: 'Stores',
          address: `Warehouse ${random.int(1, 9)}`,
          street2: where.address.address,
        };
    const gstNo =
      overseas || individual
        ? ''
        : makeGstin(
            where.gstCode,
            makePan(random, random.pick(['C', 'C', 'F'] as const), name.charAt(0)),
            random.int(1, 2),
          );
    const persons = Array.from({ length: individual ? 1 : random.int(1, 3) }, (_, p) =>
      person(ctx, random, overseas, domain, p === 0),
    );
    if (individual && persons[0]) Object.assign(persons[0], { first_name: personFirst, last_name: personLast });
    const [termDays, termLabel] = pickPaymentTerms(random);
    const imported = i < Math.min(10, customers);
    const createdMs = imported
      ? importMs
      : instantBetween(
          random,
          earliest,
          random.chance(0.8) ? localMidnight(ctx.from, org.offsetMinutes) - 1000 : latestNew,
        );
    const modifiedMs = imported
      ? importMs
      : random.chance(0.35)
        ? instantBetween(random, createdMs, ctx.asOfMs)
        : createdMs;
    contacts.push({
      contact_id: ctx.masterIds.take(),
      contact_name: name,
      company_name: individual ? '' : name,
      contact_type: vendor ? 'vendor' : 'customer',
      customer_sub_type: individual ? 'individual' : 'business',
      status: random.chance(0.08) ? 'inactive' : 'active',
      currency_code: where.currency,
      payment_terms: termDays,
      payment_terms_label: termLabel,
      gst_no: gstNo,
      gst_treatment: overseas ? 'overseas' : individual ? 'consumer' : 'business_gst',
      place_of_contact: where.stateCode,
      website: individual ? '' : `https://www.${domain}`,
      billing_address: where.address,
      shipping_address: shipping,
      contact_persons: persons,
      notes: '',
      createdMs,
      modifiedMs,
    });
  }
  return contacts;
}
