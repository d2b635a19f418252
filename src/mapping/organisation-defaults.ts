import type { CustomerDetailsInput } from '../billing/schemas/customer.js';

/**
 * What the ERP organisation says when a customer record is silent: its country (ISO alpha-2), its base
 * (home) currency, and its state in the format the connector's mapper gives customers' states.
 */
export interface OrganisationDefaults {
  countryCode?: string | undefined;
  currency?: string | undefined;
  stateCode?: string | undefined;
}

/**
 * Fills a customer's countryCode, currency and stateCode from its ERP organisation where the record says
 * nothing, because billing's own defaults (countryCode IN, currency INR) would otherwise apply by
 * omission: a US company's customer without an address would land in India, billed in rupees.
 * - countryCode: only when the record names no country at all; a country written on the record but not
 *   recognised is left alone (the mapper warns), since the organisation's country would be a guess
 *   against what the record says.
 * - currency: the record's, else the organisation's base currency (every ERP here uses the base
 *   currency for a customer that has none of its own).
 * - stateCode: only for a customer with neither a country nor a state of its own, and only when its
 *   country is then the organisation's too: a customer with no address is treated as domestic.
 */
export function withOrganisationDefaults(
  details: CustomerDetailsInput,
  org: OrganisationDefaults,
): CustomerDetailsInput {
  const out = { ...details };
  const silentOnCountry = out.countryCode === undefined && !out.country?.trim();
  if (silentOnCountry && org.countryCode) out.countryCode = org.countryCode;
  if (!out.currency && org.currency) out.currency = org.currency;
  if (silentOnCountry && out.stateCode === undefined && org.stateCode && out.countryCode === org.countryCode)
    out.stateCode = org.stateCode;
  return out;
}
