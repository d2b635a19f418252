import type { Tax } from '../../../src/billing/schemas/index.js';
import {
  buildTax,
  findIndianState,
  isIntraState,
  mapFail,
  mapOk,
  Money,
  percentOf,
  roundMoney,
  sumMoney,
  type Decimal,
  type MapResult,
  type TaxComponent,
  type TaxKind,
  nonBlank,
} from '../../../src/mapping/index.js';
import type { Steps } from '../../../src/mapping/steps.js';
import type { ZohoDocument } from '../schemas.js';
import type { ZohoLookups, ZohoTaxDefinition } from '../streams/lookups.js';
import { isExport } from './supply-type.js';

/**
 * Zoho taxes → billing Tax. A line's `tax_id` is a plain tax or a group (GST18 = CGST9 + SGST9) that
 * expands to its components through the organisation's tax settings; `tax_specific_type` says which GST
 * part a component is (https://github.com/fordez/zoho-books-mcp-server-openapi/blob/main/mcp_server/openapi-all/taxes.yml).
 * Names are never parsed. Zoho lines carry no tax amounts, so each (line, component) amount is recomputed
 * as Zoho does — taxable amount × rate, rounded per line — and then reconciled to Zoho's own figures
 * (reconcile-taxes.ts).
 */

/** The GST state code of a place of supply outside India (exports). */
export const EXPORT_STATE_CODE = '96';

/** One (line, tax component) amount. `line` −1 = the taxed shipping charge. */
export interface TaxCell {
  line: number;
  tax: ZohoTaxDefinition;
  kind: TaxKind;
  rate: Decimal;
  amount: Decimal;
}

const GST_KINDS: ReadonlySet<string> = new Set(['cgst', 'sgst', 'utgst', 'igst', 'cess']);

/** tax_specific_type → the mapping core's TaxKind; anything else (VAT, sales tax) is `other`, by name. */
export function taxKindOf(tax: ZohoTaxDefinition): TaxKind {
  const t = tax.specificType.trim().toLowerCase();
  return GST_KINDS.has(t) ? (t as TaxKind) : 'other';
}

/** The plain taxes a line's tax_id stands for (a group expands to its components). */
export function componentsOf(taxId: string, lookups: ZohoLookups, field: string): MapResult<ZohoTaxDefinition[]> {
  const tax = lookups.taxes[taxId];
  if (!tax) {
    return mapFail(
      'INVALID_FIELD',
      `${field} ${JSON.stringify(taxId)} is not in the organisation's tax settings (GET /settings/taxes)`,
      { field },
    );
  }
  if (!tax.isGroup) return mapOk([tax]);
  const parts = tax.components.map((id) => lookups.taxes[id]);
  if (parts.length === 0 || parts.some((p) => p === undefined)) {
    return mapFail('INVALID_FIELD', `${field}: tax group ${JSON.stringify(tax.name)} has unknown components`, {
      field,
    });
  }
  return mapOk(parts as ZohoTaxDefinition[]);
}

/** The cells of one taxed amount: a component per row, nil-rated and exempt components left out (they carry no amount). */
export function cellsFor(
  s: Steps,
  taxId: string,
  taxable: Decimal,
  line: number,
  lookups: ZohoLookups,
  currency: string,
  field: string,
): TaxCell[] {
  return s
    .take(componentsOf(taxId, lookups, field))
    .map((tax) => ({ tax, rate: new Money(tax.percentage) }))
    .filter(({ rate }) => !rate.isZero())
    .map(({ tax, rate }) => ({
      line,
      tax,
      kind: taxKindOf(tax),
      rate,
      amount: roundMoney(percentOf(taxable, rate), currency),
    }));
}

export function taxOf(s: Steps, cells: TaxCell[], currency: string, field: string, quiet = false): Tax {
  const parts: TaxComponent[] = cells.map((c) => ({ kind: c.kind, amount: c.amount, rate: c.rate, name: c.tax.name }));
  const result = buildTax(parts, currency, field);
  return quiet ? s.takeQuietly(result) : s.take(result);
}

/** Line `i`'s own tax (its warnings are kept once, at the document level), its amount and its summed rate. */
export function lineTaxOf(
  s: Steps,
  cells: TaxCell[],
  i: number,
  currency: string,
): { tax?: Tax; taxAmount: Decimal; taxRate: Decimal } {
  const own = cells.filter((c) => c.line === i);
  const tax = own.length > 0 ? taxOf(s, own, currency, `lineItems.${i}.tax`, true) : undefined;
  return {
    ...(tax ? { tax } : {}),
    taxAmount: sumMoney(own.map((c) => c.amount)),
    taxRate: sumMoney(own.map((c) => c.rate)),
  };
}

/**
 * place_of_supply ("KA") → placeOfSupply (the GST portal's two-letter code) and supplyStateCode (the GST
 * numeric code "29"). An export without one gets supplyStateCode "96" (outside India). A present but unknown code is INVALID_FIELD. When the
 * organisation's state is known, a warning flags CGST/SGST on an inter-state supply or IGST on an
 * intra-state one (the tax kinds themselves come from Zoho's tax settings, never from geography).
 */
export function supplyOf(
  s: Steps,
  doc: ZohoDocument,
  kinds: ReadonlySet<TaxKind>,
  lookups: ZohoLookups,
): { placeOfSupply?: string; supplyStateCode?: string } {
  const raw = nonBlank(doc.place_of_supply);
  // An export's place of supply is outside India: GST code 96 ("Other Country"), as the e-invoice schema
  // writes it for exports; Zoho leaves place_of_supply empty for an overseas customer.
  if (!raw) return isExport(nonBlank(doc.gst_treatment)) ? { supplyStateCode: EXPORT_STATE_CODE } : {};
  const state = findIndianState(raw);
  if (!state)
    s.fail(
      mapFail('INVALID_FIELD', `place_of_supply ${JSON.stringify(raw)} is not an Indian state or UT code`, {
        field: 'place_of_supply',
      }),
    );
  const orgState = lookups.organization.stateCode;
  if (orgState && findIndianState(orgState)) {
    const intra = isIntraState(orgState, state.code);
    if (intra.ok && intra.value && kinds.has('igst')) s.warn(`IGST charged on an intra-state supply (${state.code})`);
    if (intra.ok && !intra.value && (kinds.has('cgst') || kinds.has('sgst')))
      s.warn(`CGST/SGST charged on an inter-state supply (${state.code})`);
  }
  return { placeOfSupply: state.code, supplyStateCode: state.gstCode };
}
