/**
 * The organisation's own fields, as generate-india.ts puts them on invoices: one reporting tag (Region,
 * four options) and one custom field on invoices (Project code). Served by the settings routes as Zoho
 * lists them: `GET /reportingtags` {tags: [{tag_id, tag_name, …, tag_options}]}
 * (https://www.zoho.com/books/api/v3/reporting-tags/) and `GET /settings/customfields`
 * {custom_fields: [{customfield_id, label, api_name, entity, data_type, …}]}.
 */
export const REGION_TAG = {
  tag_id: '1890000000009201',
  tag_name: 'Region',
  options: ['North', 'South', 'East', 'West'] as const,
};

/** The option id of REGION_TAG's option at this index. */
export const regionOptionId = (index: number): string => `189000000000921${index}`;

export const PROJECT_CODE_FIELD = {
  customfield_id: '1890000000009301',
  api_name: 'cf_project_code',
  label: 'Project code',
  data_type: 'string',
  entity: 'invoice',
} as const;

export function renderReportingTags(): Record<string, unknown>[] {
  return [
    {
      tag_id: REGION_TAG.tag_id,
      tag_name: REGION_TAG.tag_name,
      description: '',
      is_active: true,
      is_mandatory: false,
      tag_options: REGION_TAG.options.map((name, i) => ({
        tag_option_id: regionOptionId(i),
        tag_option_name: name,
        is_active: true,
      })),
    },
  ];
}

export function renderCustomFields(): Record<string, unknown>[] {
  return [{ ...PROJECT_CODE_FIELD, is_active: true, is_mandatory: false, show_in_all_pdf: false }];
}
