import { z } from 'zod';
import { namesOf, type FieldCatalog } from '../../../src/connector/field-catalog.js';
import type { ReadContext } from '../../../src/connector/types.js';
import type { FieldKind } from '../../../src/mapping/place-fields.js';
import type { Settings } from '../settings.js';

const Id = z.union([z.string(), z.number()]).nullish();
const Text = z.string().nullish();

/** `GET /settings/customfields`: every custom field of the organisation, of every module. */
const CustomFieldsResponse = z.looseObject({
  customfields: z.array(z.looseObject({ customfield_id: Id, label: Text, api_name: Text, entity: Text })).nullish(),
  custom_fields: z.array(z.looseObject({ customfield_id: Id, label: Text, api_name: Text, entity: Text })).nullish(),
});

/** `GET /reportingtags`: the organisation's reporting tags. */
const ReportingTagsResponse = z.looseObject({
  reporting_tags: z.array(z.looseObject({ tag_id: Id, tag_name: Text })).nullish(),
  tags: z.array(z.looseObject({ tag_id: Id, tag_name: Text })).nullish(),
});

/**
 * The organisation's custom fields (by label, api_name and customfield_id) and reporting tags (by
 * tag_name and tag_id): one read each, only for the kinds the connection's rules name.
 * - Reporting tags: `GET /reportingtags` (https://www.zoho.com/books/api/v3/reporting-tags/).
 * - Custom fields: `GET /settings/customfields` (the settings endpoint Zoho Books' custom-field
 *   preferences are served from, https://www.zoho.com/books/help/settings/preferences.html#custom-fields);
 *   its list is read under `customfields`, or `custom_fields` as some organisations answer it.
 */
export async function zohoFieldCatalog(
  ctx: ReadContext<Settings>,
  kinds: readonly FieldKind[],
): Promise<FieldCatalog[]> {
  const out: FieldCatalog[] = [];
  if (kinds.includes('customField')) {
    const res = await ctx.http.request({
      path: 'settings/customfields',
      endpoint: 'GET /settings/customfields',
      schema: CustomFieldsResponse,
      signal: ctx.signal,
    });
    const list = res.customfields ?? res.custom_fields ?? [];
    out.push({ kind: 'customField', fields: list.map((f) => namesOf(f.label, f.api_name, f.customfield_id)) });
  }
  if (kinds.includes('reportingTag')) {
    const res = await ctx.http.request({
      path: 'reportingtags',
      endpoint: 'GET /reportingtags',
      schema: ReportingTagsResponse,
      signal: ctx.signal,
    });
    const list = res.reporting_tags ?? res.tags ?? [];
    out.push({ kind: 'reportingTag', fields: list.map((t) => namesOf(t.tag_name, t.tag_id)) });
  }
  return out;
}
