import type { FlatObject } from '../../../src/billing/schemas/index.js';
import { nonBlank } from '../../../src/mapping/index.js';
import {
  nonEmpty,
  placeFields,
  type FieldRule,
  type FieldValue,
  type FoundField,
} from '../../../src/mapping/place-fields.js';
import type { Steps } from '../../../src/mapping/steps.js';
import type { ZohoCustomField, ZohoReportingTag } from '../schemas.js';

/**
 * Zoho's reporting tags, custom fields and salesperson on an invoice, a credit note or a contact
 * (https://www.zoho.com/books/api/v3/invoices/, https://www.zoho.com/books/api/v3/credit-notes/,
 * https://www.zoho.com/books/api/v3/contacts/: `tags[]` {tag_id, tag_name, tag_option_id,
 * tag_option_name}, `custom_fields[]` {customfield_id, api_name, label, value}; reporting tags reach
 * contacts, invoices and credit notes alike: https://www.zoho.com/books/help/settings/reporting-tags.html)
 * → the billing input's flat `tags` and `metaData` (docs/interface-assumptions.md, A9 and A41):
 *
 * - a reporting tag → `tags[tag_name] = tag_option_name` (billing filters invoices by tag `key:value`); ids
 *   stand in when Zoho prints no names;
 * - a custom field → `metaData[api_name]` (Zoho's `cf_…` name, unique in the organisation; else `cf_<label>`),
 *   its value as printed when it is a string, number or boolean; any other value (a list, an object) is left
 *   out with a warning naming it;
 * - the salesperson → `metaData.salespersonId` / `metaData.salespersonName`.
 *
 * The connection's `fields` rules move a reporting tag (by tag_name or tag_id) or a custom field (by
 * label, api_name or customfield_id) to the tag or metaData key they name (src/mapping/place-fields.ts).
 */
export interface Labels {
  tags?: FlatObject;
  /** `base` with this record's custom fields (and salesperson) added. */
  metaData: FlatObject;
}

export interface ZohoLabelled {
  tags?: ZohoReportingTag[] | null;
  custom_fields?: ZohoCustomField[] | null;
  salesperson_id?: string | null;
  salesperson_name?: string | null;
}

export function labelsOf(
  s: Steps,
  doc: ZohoLabelled,
  rules: readonly FieldRule[] | undefined,
  base: FlatObject,
): Labels {
  const found: FoundField[] = [];
  (doc.tags ?? []).forEach((t, i) => {
    const key = nonBlank(t.tag_name) ?? nonBlank(t.tag_id);
    const value = nonBlank(t.tag_option_name) ?? nonBlank(t.tag_option_id);
    if (key && value)
      found.push({
        kind: 'reportingTag',
        names: [t.tag_name, t.tag_id],
        value,
        default: { tag: key },
        where: `tags.${i}`,
      });
    else s.warn(`tags.${i}: a reporting tag without a name or an option is left out`);
  });
  (doc.custom_fields ?? []).forEach((f, i) => {
    const key = nonBlank(f.api_name) ?? (nonBlank(f.label) ? `cf_${nonBlank(f.label)}` : undefined);
    const value = customValueOf(s, f, key, i);
    if (!key || value === undefined) return;
    found.push({
      kind: 'customField',
      names: [f.label, f.api_name, f.customfield_id],
      value,
      default: { metaData: key },
      where: `custom_fields.${i} (${key})`,
    });
  });
  const placed = placeFields((m) => s.warn(m), found, rules, { metaData: base });
  // The salesperson after the custom fields: the order the bodies have always been sent in.
  const salespersonId = nonBlank(doc.salesperson_id);
  const salespersonName = nonBlank(doc.salesperson_name);
  if (salespersonId) placed.metaData.salespersonId = salespersonId;
  if (salespersonName) placed.metaData.salespersonName = salespersonName;
  const tags = nonEmpty(placed.tags);
  return { ...(tags ? { tags } : {}), metaData: placed.metaData };
}

/** A custom field's value when it is a string, number or boolean; undefined when empty or of another shape. */
function customValueOf(s: Steps, f: ZohoCustomField, key: string | undefined, i: number): FieldValue | undefined {
  const v = f.value;
  if (!key || v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  s.warn(`custom_fields.${i} (${key}): a ${Array.isArray(v) ? 'list' : typeof v} value is left out`);
  return undefined;
}
