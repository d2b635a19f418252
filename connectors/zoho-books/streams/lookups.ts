import { z } from 'zod';
import type { ReadContext } from '../../../src/connector/types.js';
import { ConfigError } from '../../../src/errors/index.js';
import type { ZohoLookups, ZohoOrganizationInfo, ZohoTaxDefinition } from '../map/lookups.js';
import { ZohoOrganizationsResponse, ZohoTaxesResponse, ZohoTaxGroupResponse, type ZohoTax } from '../schemas.js';
import { parseZohoSettings } from '../settings.js';

/**
 * Organisation and tax settings, fetched once per read for the mappers (`Stream.lookups`) and, for the
 * organisation, by `read` itself (the cursor is sent in the organisation's time zone). Cached per process
 * for settings.lookupsCacheSeconds (default 1 h): on the Free plan's 1,000 calls a day, re-reading
 * 1 + N tax-group calls on every 5-minute pull of every stream would spend a third of the budget.
 */
interface CacheEntry<T> {
  expires: number;
  value: Promise<T>;
}
const cache = new Map<string, CacheEntry<unknown>>();

function cached<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
  const now = Date.now();
  const hit = cache.get(key) as CacheEntry<T> | undefined;
  if (hit && hit.expires > now) return hit.value;
  const value = load();
  cache.set(key, { expires: now + ttlMs, value });
  value.catch(() => cache.delete(key));
  return value;
}

/** Forgets cached lookups (tests, or after an operator changes tax settings). */
export function clearZohoLookupsCache(): void {
  cache.clear();
}

function cacheKey(ctx: ReadContext, what: string): string {
  const settings = parseZohoSettings(ctx.settings);
  return `${what}|${ctx.connectionId}|${settings.organizationId}|${ctx.http.options.prefixUrl}`;
}

function ttlMs(ctx: ReadContext): number {
  return parseZohoSettings(ctx.settings).lookupsCacheSeconds * 1000;
}

export function fetchOrganization(ctx: ReadContext): Promise<ZohoOrganizationInfo> {
  return cached(cacheKey(ctx, 'org'), ttlMs(ctx), async () => {
    const { organizationId } = parseZohoSettings(ctx.settings);
    const res = await ctx.http.request({ path: 'organizations', endpoint: 'GET /organizations', schema: ZohoOrganizationsResponse, signal: ctx.signal });
    const org = res.organizations.find((o) => o.organization_id === organizationId);
    if (!org) {
      throw new ConfigError(
        `zoho-books: organization ${organizationId} is not among this token's organisations (${res.organizations.map((o) => o.organization_id).join(', ') || 'none'})`,
      );
    }
    const text = (v: string | null | undefined) => (v && v.trim() !== '' ? v.trim() : undefined);
    return {
      organizationId,
      ...(text(org.name) ? { name: text(org.name) } : {}),
      baseCurrency: org.currency_code.trim().toUpperCase(),
      ...(text(org.time_zone) ? { timeZone: text(org.time_zone) } : {}),
      ...(text(org.state_code) ? { stateCode: text(org.state_code) } : {}),
      ...(text(org.gst_no) ? { gstNo: text(org.gst_no) } : {}),
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

export function fetchTaxes(ctx: ReadContext): Promise<Record<string, ZohoTaxDefinition>> {
  return cached(cacheKey(ctx, 'taxes'), ttlMs(ctx), async () => {
    const taxes: Record<string, ZohoTaxDefinition> = {};
    for (let page = 1; ; page++) {
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
    // Groups list no components: each is resolved through GET /settings/taxgroups/{id}.
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

export async function fetchLookups(ctx: ReadContext): Promise<ZohoLookups> {
  const organization = await fetchOrganization(ctx);
  const taxes = await fetchTaxes(ctx);
  return { organization, taxes };
}

/**
 * Minutes east of UTC of `timeZone` at `instant` (DST-aware: Zoho prints timestamps in the org's zone as
 * it was then). Undefined for a zone this runtime does not know.
 */
export function offsetMinutesAt(instant: Date, timeZone: string): number | undefined {
  try {
    const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(instant)
      .find((p) => p.type === 'timeZoneName')?.value;
    if (name === 'GMT') return 0;
    const m = /^GMT([+-])(\d{1,2})(?::(\d{2}))?$/.exec(name ?? '');
    if (!m) return undefined;
    const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
    return m[1] === '-' ? -minutes : minutes;
  } catch {
    return undefined;
  }
}
