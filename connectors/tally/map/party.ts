import type { Address, CustomerDetailsInput, TaxIdentifier } from '../../../src/billing/schemas/customer.js';
import { buyerIdFor, countryCodeOf, findIndianState, nonBlank, stateOfGstin } from '../../../src/mapping/index.js';
import type { TallyLedger } from '../schemas.js';

/**
 * The buyer: a ledger under Sundry Debtors (https://github.com/dhananjay1405/tally-database-loader, ledger
 * fields) → billing CustomerDetails. The ledger's GUID is the customer's id (a ledger can be renamed; its
 * GUID stays). Its GSTIN is `PARTYGSTIN` (older releases) and its PAN `INCOMETAXNUMBER`; a GSTIN holds the
 * PAN in characters 3–12, so a ledger with a GSTIN but no PAN gets it from there.
 */
const GSTIN = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
const PAN = /^[A-Z]{5}[0-9]{4}[A-Z]$/;

export function taxIdentifiersOf(gstin: string | undefined, pan: string | undefined): TaxIdentifier[] {
  const g = gstin?.replace(/\s/g, '').toUpperCase();
  const p = pan?.replace(/\s/g, '').toUpperCase();
  const out: TaxIdentifier[] = [];
  if (g && GSTIN.test(g)) out.push({ value: g, type: 'GSTIN' });
  const panValue = p && PAN.test(p) ? p : g && GSTIN.test(g) ? g.slice(2, 12) : undefined;
  if (panValue) out.push({ value: panValue, type: 'PAN' });
  return out;
}

function addressLines(l: TallyLedger): string[] {
  return (l['ADDRESS.LIST'] ?? []).flatMap((a) =>
    Array.isArray(a.ADDRESS) ? a.ADDRESS : a.ADDRESS ? [a.ADDRESS] : [],
  );
}

/** The ledger as billing's customer details (without metaData, which the customer mapper adds). */
export function customerDetailsOf(l: TallyLedger, connectionId: string): CustomerDetailsInput {
  const gstin = nonBlank(l.PARTYGSTIN);
  const country = nonBlank(l.COUNTRYNAME);
  const countryCode = countryCodeOf(country) ?? (country ? undefined : 'IN');
  const state = findIndianState(nonBlank(l.LEDSTATENAME)) ?? (gstin ? stateOfGstin(gstin) : undefined);
  const [line1, ...rest] = addressLines(l)
    .map((a) => a.trim())
    .filter(Boolean);
  const address: Address = {};
  if (line1) address.line1 = line1;
  if (rest.length) address.line2 = rest.join(', ');
  if (nonBlank(l.LEDSTATENAME)) address.state = nonBlank(l.LEDSTATENAME)!;
  if (country) address.country = country;
  if (nonBlank(l.PINCODE)) address.zipCode = nonBlank(l.PINCODE)!;
  const taxIdentifiers = taxIdentifiersOf(gstin, nonBlank(l.INCOMETAXNUMBER));
  return {
    buyerId: buyerIdFor(connectionId, l.GUID),
    name: nonBlank(l.MAILINGNAME) ?? nonBlank(l.NAME) ?? l.GUID,
    ...(nonBlank(l.MAILINGNAME) && nonBlank(l.NAME) !== nonBlank(l.MAILINGNAME) ? { alias: nonBlank(l.NAME)! } : {}),
    ...(taxIdentifiers.length ? { taxIdentifiers } : {}),
    ...(Object.keys(address).length ? { registeredAddress: address } : {}),
    ...(state && (countryCode === 'IN' || countryCode === undefined) ? { stateCode: state.gstCode } : {}),
    ...(countryCode ? { countryCode } : {}),
    ...(country ? { country } : {}),
    ...(nonBlank(l.LEDGERMOBILE) ? { primaryPhone: nonBlank(l.LEDGERMOBILE)! } : {}),
    ...(nonBlank(l.EMAIL) ? { primaryEmail: nonBlank(l.EMAIL)! } : {}),
    currency: 'INR',
    erpId: l.GUID,
  };
}

/**
 * The buyer as a voucher names it: the party ledger's GUID (computed in the read from PARTYLEDGERNAME,
 * streams/invoices.ts), its name and the GSTIN the voucher was made with.
 */
export function customerOfVoucher(
  connectionId: string,
  v: { PARTYLEDGERGUID?: string; PARTYLEDGERNAME?: string; PARTYGSTIN?: string },
): CustomerDetailsInput | undefined {
  const guid = nonBlank(v.PARTYLEDGERGUID);
  if (!guid) return undefined;
  const gstin = nonBlank(v.PARTYGSTIN);
  const state = gstin ? stateOfGstin(gstin.toUpperCase()) : undefined;
  const taxIdentifiers = taxIdentifiersOf(gstin, undefined);
  return {
    buyerId: buyerIdFor(connectionId, guid),
    ...(nonBlank(v.PARTYLEDGERNAME) ? { name: nonBlank(v.PARTYLEDGERNAME)! } : {}),
    ...(taxIdentifiers.length ? { taxIdentifiers } : {}),
    ...(state ? { stateCode: state.gstCode } : {}),
    erpId: guid,
  };
}
