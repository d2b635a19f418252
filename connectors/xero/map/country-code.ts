/**
 * Xero's Address.Country is free text ("India", "Australia", sometimes "IN"). The billing customer wants
 * an ISO 3166 alpha-2 code. Known names map; a two-letter value is taken as a code; anything else gives
 * undefined (the billing model's default then applies) rather than a guess.
 */
const NAMES: Record<string, string> = {
  india: 'IN',
  australia: 'AU',
  'new zealand': 'NZ',
  'united kingdom': 'GB',
  uk: 'GB',
  'great britain': 'GB',
  'united states': 'US',
  'united states of america': 'US',
  usa: 'US',
  singapore: 'SG',
  'united arab emirates': 'AE',
  uae: 'AE',
  germany: 'DE',
  france: 'FR',
  canada: 'CA',
  ireland: 'IE',
  netherlands: 'NL',
  'south africa': 'ZA',
  malaysia: 'MY',
  japan: 'JP',
};

export function countryCodeOf(country: string | null | undefined): string | undefined {
  const text = (country ?? '').trim();
  if (text === '') return undefined;
  if (/^[A-Za-z]{2}$/.test(text)) return text.toUpperCase();
  return NAMES[text.toLowerCase()];
}
