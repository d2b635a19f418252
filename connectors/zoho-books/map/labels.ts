import type { FlatObject } from '../../../src/billing/schemas/index.js';
import { nonBlank } from '../../../src/mapping/index.js';
import type { Steps } from '../../../src/mapping/steps.js';
import type { ZohoInvoice } from '../schemas.js';

/**
 * Zoho's reporting tags, custom fields and salesperson on an invoice (https://www.zoho.com/books/api/v3/invoices/:
 * `tags[]` {tag_id, tag_name, tag_option_id, tag_option_name}, `custom_fields[]` {customfield_id, api_name,
 * label, value}, `salesperson_id`, `salesperson_name`) → the billing input's flat `tags` and `metaData`
 * (docs/interface-assumptions.md, A9 and A41):
 *
 * - a reporting tag → `tags[tag_name] = tag_option_name` (billing filters invoices by tag `key:value`); ids
 *   stand in when Zoho prints no names;
 * - a custom field → `metaData[api_name]` (Zoho's `cf_…` name, unique in the organisation; else `cf_<label>`),
 *   its value as printed when it is a string, number or boolean; any other value (a list, an object) is left
 *   out with a warning naming it;
 * - the salesperson → `metaData.salespersonId` / `metaData.salespersonName`.
 */
export interface Labels {
  tags?: FlatObject;
  meta: Record<string, string | number | boolean | undefined>;
}

export function labelsOf(s: Steps, inv: ZohoInvoice): Labels {
  const tags: FlatObject = {};
  (inv.tags ?? []).forEach((t, i) => {
    const key = nonBlank(t.tag_name) ?? nonBlank(t.tag_id);
    const value = nonBlank(t.tag_option_name) ?? nonBlank(t.tag_option_id);
    if (key && value) tags[key] = value;
    else s.warn(`tags.${i}: a reporting tag without a name or an option is left out`);
  });
  const meta: Labels['meta'] = {};
  (inv.custom_fields ?? []).forEach((f, i) => {
    const key = nonBlank(f.api_name) ?? (nonBlank(f.label) ? `cf_${nonBlank(f.label)}` : undefined);
    const v = f.value;
    if (!key || v === undefined || v === null || v === '') return;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') meta[key] = v;
    else s.warn(`custom_fields.${i} (${key}): a ${Array.isArray(v) ? 'list' : typeof v} value is left out`);
  });
  meta.salespersonId = nonBlank(inv.salesperson_id);
  meta.salespersonName = nonBlank(inv.salesperson_name);
  return { ...(Object.keys(tags).length > 0 ? { tags } : {}), meta };
}
