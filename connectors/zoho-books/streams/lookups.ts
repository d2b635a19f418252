import { z } from 'zod';
import { cachedLookups, clearLookupsCache } from '../../../src/connector/lookups-cache.js';
import { lookupsResult } from '../../../src/connector/read-lookups.js';
import type { ReadContext } from '../../../src/connector/types.js';
import { ConfigError } from '../../../src/errors/index.js';
import { countryCodeOf, type MapResult } from '../../../src/mapping/index.js';
import { ZohoOrganizationsResponse, ZohoTaxesResponse, ZohoTaxGroupResponse, type ZohoTax } from '../schemas.js';
import type { Settings } from '../settings.js';

/**
 * What the Zoho mappers need besides the record, fetched once per read by the document streams'
 * `lookups()` and handed over in MapContext.lookups: the organisation (`GET /organizations`: base
 * currency, time zone, state) and its tax settings (`GET /settings/taxes`, each group through
 * `GET /settings/taxgroups/{id}`). Plain JSON (percentages as decimal strings), so it can be logged or
 * stored. `read` also uses the organisation: the cursor is sent in its time zone.
 *
 * Cached per process for settings.lookupsCacheSeconds (default 1 h): on the Free plan's 1,000 calls a
 * day, re-reading 1 + N tax-group calls on every 5-minute pull of every stream would spend a third of
 * the budget.
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
  /** ISO alpha-2 of the organisation's `country` ("India" → "IN"): a silent customer's country. */
  countryCode: z.string().optional(),
  gstNo: z.string().optional(),
});
export type ZohoOrganizationInfo = z.infer<typeof ZohoOrganizationInfo>;

export const ZohoLookups = z.strictObject({
  organization: ZohoOrganizationInfo,
  /** By tax_id: plain taxes, groups, and every group's components. */
  taxes: z.record(z.string(), ZohoTaxDefinition),
});
export type ZohoLookups = z.infer<typeof ZohoLookups>;

/** MapContext.lookups checked as ZohoLookups (src/connector/read-lookups.ts): missing or malformed is MISSING_FIELD. */
export function readLookups(raw: unknown): MapResult<ZohoLookups> {
  return lookupsResult(ZohoLookups, raw, 'Zoho', 'organisation, tax settings');
}

/** Cached per connection for settings.lookupsCacheSeconds (src/connector/lookups-cache.ts). */
function cached<T>(ctx: ReadContext<Settings>, what: string, load: () => Promise<T>): Promise<T> {
  return cachedLookups(ctx, `zoho-${what}|${ctx.settings.organizationId}`, ctx.settings.lookupsCacheSeconds, load);
}

/** Forgets cached lookups (tests, or after an operator changes tax settings). */
export { clearLookupsCache };

const text = (v: string | null | undefined) => (v && v.trim() !== '' ? v.trim() : undefined);

export function fetchOrganization(ctx: ReadContext<Settings>): Promise<ZohoOrganizationInfo> {
  return cached(ctx, 'org', async () => {
    const { organizationId } = ctx.settings;
    // https://www.zoho.com/books/api/v3/introduction/ (organisation ids come from GET /organizations)
    const res = await ctx.http.request({
      path: 'organizations',
      endpoint: 'GET /organizations',
      schema: ZohoOrganizationsResponse,
      signal: ctx.signal,
    });
    const org = res.organizations.find((o) => o.organization_id === organizationId);
    if (!org) {
      throw new ConfigError(
        `zoho-books: organization ${organizationId} is not among this token's organisations (${res.organizations.map((o) => o.organization_id).join(', ') || 'none'})`,
      );
    }
    return {
      organizationId,
      ...(text(org.name) ? { name: text(org.name) } : {}),
      baseCurrency: org.currency_code.trim().toUpperCase(),
      ...(text(org.time_zone) ? { timeZone: text(org.time_zone) } : {}),
      ...(text(org.state_code) ? { stateCode: text(org.state_code) } : {}),
      ...(text(org.gst_no) ? { gstNo: text(org.gst_no) } : {}),
      ...(countryCodeOf(org.country) ? { countryCode: countryCodeOf(org.country) } : {}),
    };
  });
}

function definition(tax: z.infer<typeof ZohoTax>, components: string[] = [tax.tax_id]): ZohoTaxDefinition {
  const isGroup = tax.tax_type?.trim().toLowerCase() === 'tax_group';
  return {
    id: tax.tax_id,
    name: tax.tax_name,
    percentage: String(tax.tax_percentage).trim(),
    isGroup,
    specificType: tax.tax_specific_type?.trim().toLowerCase() ?? '',
    components: isGroup ? components : [tax.tax_id],
  };
}

export function fetchTaxes(ctx: ReadContext<Settings>): Promise<Record<string, ZohoTaxDefinition>> {
  return cached(ctx, 'taxes', async () => {
    const taxes: Record<string, ZohoTaxDefinition> = {};
    for (let page = 1; ; page++) {
      // https://github.com/fordez/zoho-books-mcp-server-openapi/blob/main/mcp_server/openapi-all/taxes.yml
      const res = await ctx.http.request({
        path: 'settings/taxes',
        endpoint: 'GET /settings/taxes',
        query: { page, per_page: 200 },
        schema: ZohoTaxesResponse,
        signal: ctx.signal,
      });
      for (const t of res.taxes) taxes[t.tax_id] = definition(t);
      if (!res.page_context?.has_more_page || res.taxes.length === 0) break;
    }
    // Groups list no components: each is resolved through GET /settings/taxgroups/{id} (same document).
    for (const group of Object.values(taxes).filter((t) => t.isGroup)) {
      const res = await ctx.http.request({
        path: `settings/taxgroups/${encodeURIComponent(group.id)}`,
        endpoint: 'GET /settings/taxgroups/{id}',
        schema: ZohoTaxGroupResponse,
        signal: ctx.signal,
      });
      for (const c of res.tax_group.taxes) taxes[c.tax_id] ??= definition(c);
      group.components = res.tax_group.taxes.map((c) => c.tax_id);
    }
    return taxes;
  });
}

export async function fetchLookups(ctx: ReadContext<Settings>): Promise<ZohoLookups> {
  const organization = await fetchOrganization(ctx);
  const taxes = await fetchTaxes(ctx);
  return { organization, taxes };
}

/**
 * The customers stream's lookups: the organisation only (the one `read` fetches anyway, cached), for a
 * contact that names no country. No tax settings: the customer mapper needs none.
 */
export async function fetchOrganizationLookups(
  ctx: ReadContext<Settings>,
): Promise<{ organization: ZohoOrganizationInfo }> {
  return { organization: await fetchOrganization(ctx) };
}

/** MapContext.lookups' organisation, when there is a readable one (customer mapping works without it). */
export function readOrganization(raw: unknown): ZohoOrganizationInfo | undefined {
  const parsed = z.looseObject({ organization: ZohoOrganizationInfo }).safeParse(raw);
  return parsed.success ? parsed.data.organization : undefined;
}
