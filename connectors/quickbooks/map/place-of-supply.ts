import { findIndianState, type IndianState, stateOfGstin } from '../../../src/mapping/index.js';
import type { QboAddress, QboCustomer } from '../schemas.js';
import type { QboLookups } from './lookups.js';

/**
 * QBO v3 has no place-of-supply field (reference §2.4, VERIFY for the IN edition), so it is derived, in
 * this order: the document's ShipAddr, its BillAddr, the customer's ShipAddr, BillAddr, then the state
 * in the customer's GSTIN (its first two digits). Addresses outside India do not count. Undefined when
 * nothing resolves to an Indian state (exports, or no address at all).
 */
export function placeOfSupplyOf(doc: { ShipAddr?: QboAddress; BillAddr?: QboAddress }, customer?: QboCustomer): IndianState | undefined {
  const addresses = [doc.ShipAddr, doc.BillAddr, customer?.ShipAddr, customer?.BillAddr];
  for (const a of addresses) {
    if (!a?.CountrySubDivisionCode || !isIndia(a.Country)) continue;
    const state = findIndianState(a.CountrySubDivisionCode);
    if (state) return state;
  }
  return customer?.GSTIN ? stateOfGstin(customer.GSTIN) : undefined;
}

/** An absent country counts as India only for an Indian company's documents (the caller checks that). */
export function isIndia(country: string | undefined): boolean {
  if (country === undefined || country.trim() === '') return true;
  return ['in', 'ind', 'india', 'bharat'].includes(country.trim().toLowerCase());
}

/** True when the QBO company is in India (CompanyInfo.Country "IN" or its address says India). */
export function isIndianCompany(lookups: QboLookups): boolean {
  return lookups.companyCountry !== undefined ? isIndia(lookups.companyCountry) : lookups.homeCurrency === 'INR';
}

/**
 * Whether a supply is intra-state (CGST+SGST) rather than inter-state (IGST): same state on both sides,
 * and not to an SEZ or overseas (GSTRegistrationType SEZ / OVERSEAS are inter-state whatever the states
 * say). Undefined when either side is unknown.
 */
export function isIntraStateSupply(lookups: QboLookups, place: IndianState | undefined, customer?: QboCustomer): boolean | undefined {
  const type = customer?.GSTRegistrationType?.toUpperCase();
  if (type === 'SEZ' || type === 'OVERSEAS') return false;
  const supplier = findIndianState(lookups.companyState);
  if (!supplier || !place) return undefined;
  return supplier.gstCode === place.gstCode;
}
