import type { Address } from '../../../src/billing/schemas/index.js';
import { findIndianState } from '../../../src/mapping/index.js';
import type { QboAddress } from '../schemas.js';
import { isIndia } from './place-of-supply.js';

/**
 * QBO PhysicalAddress (`Line1..Line5, City, CountrySubDivisionCode, PostalCode, Country`) → billing Address.
 * Line2..Line5 are joined into line2 (the billing model has two lines). Undefined when empty.
 */
export function toAddress(a: QboAddress | undefined): Address | undefined {
  if (!a) return undefined;
  const clean = (s: string | undefined) => (s?.trim() ? s.trim() : undefined);
  const rest = [a.Line2, a.Line3, a.Line4, a.Line5].map(clean).filter((s): s is string => s !== undefined);
  const out: Address = {};
  const line1 = clean(a.Line1);
  if (line1) out.line1 = line1;
  if (rest.length) out.line2 = rest.join(', ');
  const city = clean(a.City);
  if (city) out.city = city;
  const state = clean(a.CountrySubDivisionCode);
  if (state) out.state = state;
  const country = clean(a.Country);
  if (country) out.country = country;
  const zip = clean(a.PostalCode);
  if (zip) out.zipCode = zip;
  return Object.keys(out).length ? out : undefined;
}

/** Same address twice (Bill = Ship is common) is listed once. */
export function sameAddress(a: Address, b: Address): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Country names QBO companies type, to ISO 3166 alpha-2. Unknown names give undefined (never a guess). */
const COUNTRIES: Readonly<Record<string, string>> = {
  india: 'IN',
  in: 'IN',
  ind: 'IN',
  bharat: 'IN',
  'united states': 'US',
  'united states of america': 'US',
  usa: 'US',
  us: 'US',
  'united kingdom': 'GB',
  uk: 'GB',
  gb: 'GB',
  'great britain': 'GB',
  england: 'GB',
  germany: 'DE',
  de: 'DE',
  deutschland: 'DE',
  france: 'FR',
  fr: 'FR',
  netherlands: 'NL',
  nl: 'NL',
  singapore: 'SG',
  sg: 'SG',
  'united arab emirates': 'AE',
  uae: 'AE',
  ae: 'AE',
  australia: 'AU',
  au: 'AU',
  canada: 'CA',
  ca: 'CA',
  japan: 'JP',
  jp: 'JP',
  ireland: 'IE',
  ie: 'IE',
};

export function countryCodeOf(country: string | undefined): string | undefined {
  if (!country?.trim()) return undefined;
  return COUNTRIES[country.trim().toLowerCase()];
}

/** The state as a two-letter GST code for Indian addresses ("Maharashtra" → "MH"), else as written. */
export function stateCodeOf(a: QboAddress | undefined): string | undefined {
  const s = a?.CountrySubDivisionCode?.trim();
  if (!s) return undefined;
  return isIndia(a?.Country) ? (findIndianState(s)?.code ?? s) : s;
}
