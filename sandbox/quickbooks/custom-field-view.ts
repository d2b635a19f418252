import { LEGACY_CUSTOM_FIELD_IDS } from './catalog.js';

/**
 * What QBO shows of a transaction's custom fields: without `include=enhancedAllCustomFields` only the
 * legacy string fields (DefinitionId 1–3; "only the first three String custom fields will be available
 * through the existing API functions",
 * https://developer.intuit.com/app/developer/qbo/docs/workflows/create-custom-fields); with it, every
 * field (https://developer.intuit.com/app/developer/qbo/docs/workflows/create-custom-fields/get-started).
 * A field without a DefinitionId (some of Intuit's published examples) counts as legacy. Rows are copied
 * only when something is taken out; the stored rows are never changed.
 */
export function withCustomFieldsFor(
  rows: ReadonlyArray<Record<string, unknown>>,
  include: string | null,
): Array<Record<string, unknown>> {
  const all = (include ?? '').split(',').some((v) => v.trim() === 'enhancedAllCustomFields');
  if (all) return [...rows];
  return rows.map((row) => {
    const fields = row.CustomField;
    if (!Array.isArray(fields)) return row;
    const legacy = fields.filter((f: { DefinitionId?: unknown }) => {
      const id = f?.DefinitionId;
      return id === undefined || LEGACY_CUSTOM_FIELD_IDS.has(String(id));
    });
    if (legacy.length === fields.length) return row;
    const { CustomField: _dropped, ...rest } = row;
    return legacy.length ? { ...rest, CustomField: legacy } : rest;
  });
}
