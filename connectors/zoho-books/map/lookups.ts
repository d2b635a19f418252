import { z } from 'zod';
import { mapFail, mapOk, type MapResult, type TaxKind } from '../../../src/mapping/index.js';

/**
 * What the Zoho mappers need besides the record, fetched once per read by the streams' `lookups()`
 * (GET /organizations, GET /settings/taxes, GET /settings/taxgroups/{id}) and handed over in
 * MapContext.lookups. Plain JSON (percentages as decimal strings), so it can be logged or stored.
 */
export const ZohoTaxDefinition = z.strictObject({
  id: z.string(),
  name: z.string(),
  /** Percent as a decimal string: "9", "2.5". */
  percentage: z.string(),
  /** A group (GST18 = CGST9 + SGST9) is resolved through `components`; a plain tax is its own component. */
  isGroup: z.boolean(),
  /** India edition `tax_specific_type`: cgst | sgst | igst | cess | nil | utgst; '' when absent. */
  specificType: z.string(),
  components: z.array(z.string()),
});
export type ZohoTaxDefinition = z.infer<typeof ZohoTaxDefinition>;

export const ZohoOrganizationInfo = z.strictObject({
  organizationId: z.string(),
  name: z.string().optional(),
  /** The organisation's base currency: Zoho's exchange_rate and bcy_* amounts are relative to it. */
  baseCurrency: z.string(),
  /** IANA zone, e.g. "Asia/Kolkata": every Zoho timestamp is printed in it. */
  timeZone: z.string().optional(),
  /** The organisation's own state (GST registration), two-letter code. */
  stateCode: z.string().optional(),
  gstNo: z.string().optional(),
});
export type ZohoOrganizationInfo = z.infer<typeof ZohoOrganizationInfo>;

export const ZohoLookups = z.strictObject({
  organization: ZohoOrganizationInfo,
  /** By tax_id: plain taxes, groups, and every group's components. */
  taxes: z.record(z.string(), ZohoTaxDefinition),
});
export type ZohoLookups = z.infer<typeof ZohoLookups>;

const validated = new WeakMap<object, MapResult<ZohoLookups>>();

/** MapContext.lookups as ZohoLookups (validated once per lookups object, then cached). */
export function readLookups(raw: Record<string, unknown> | undefined): MapResult<ZohoLookups> {
  if (!raw) return mapFail('MISSING_FIELD', 'Zoho lookups (organisation, tax settings) are missing from the map context', { field: 'lookups' });
  const cached = validated.get(raw);
  if (cached) return cached;
  const parsed = ZohoLookups.safeParse(raw);
  const result: MapResult<ZohoLookups> = parsed.success
    ? mapOk(parsed.data)
    : mapFail('MISSING_FIELD', `Zoho lookups are malformed: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`, { field: 'lookups' });
  validated.set(raw, result);
  return result;
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
    return mapFail('INVALID_FIELD', `${field} ${JSON.stringify(taxId)} is not in the organisation's tax settings (GET /settings/taxes)`, { field });
  }
  if (!tax.isGroup) return mapOk([tax]);
  const parts = tax.components.map((id) => lookups.taxes[id]);
  if (parts.length === 0 || parts.some((p) => p === undefined)) {
    return mapFail('INVALID_FIELD', `${field}: tax group ${JSON.stringify(tax.name)} has unknown components`, { field });
  }
  return mapOk(parts as ZohoTaxDefinition[]);
}
