import { z } from 'zod';
import { namesOf, type FieldCatalog } from '../../../src/connector/field-catalog.js';
import type { ReadContext } from '../../../src/connector/types.js';
import type { FieldKind } from '../../../src/mapping/place-fields.js';
import { runQuery, selectStatement } from './query.js';

const NameValue = z.looseObject({
  Name: z.string().optional(),
  StringValue: z.string().optional(),
  BooleanValue: z.boolean().optional(),
});

/** Preferences with its sales forms' custom-field settings (nested CustomField lists of name/value pairs). */
const PreferencesWithCustomFields = z.looseObject({
  SalesFormsPrefs: z
    .looseObject({ CustomField: z.array(z.looseObject({ CustomField: z.array(NameValue).optional() })).optional() })
    .optional(),
});

const LEGACY = /^SalesFormsPrefs\.(UseSalesCustom|SalesCustomName)(\d)$/;

/**
 * The company's sales custom fields from `SELECT * FROM Preferences`
 * (https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/preferences):
 * SalesFormsPrefs.CustomField holds `SalesFormsPrefs.UseSalesCustom<n>` (on or off) and
 * `SalesFormsPrefs.SalesCustomName<n>` (its name) for the three legacy fields, DefinitionId n
 * (https://developer.intuit.com/app/developer/qbo/docs/workflows/create-custom-fields). An Advanced
 * company's other fields are listed only by the Custom Fields GraphQL API
 * (https://developer.intuit.com/app/developer/qbo/docs/workflows/create-custom-fields/develop-custom-fields),
 * which this app is not granted: the list is marked incomplete. One read.
 */
export async function qboFieldCatalog(ctx: ReadContext, kinds: readonly FieldKind[]): Promise<FieldCatalog[]> {
  if (!kinds.includes('customField')) return [];
  const { rows } = await runQuery(
    ctx,
    'Preferences',
    selectStatement({ entity: 'Preferences' }),
    PreferencesWithCustomFields,
  );
  const used = new Map<string, boolean>();
  const names = new Map<string, string>();
  for (const group of rows[0]?.SalesFormsPrefs?.CustomField ?? []) {
    for (const f of group.CustomField ?? []) {
      const m = LEGACY.exec(f.Name ?? '');
      if (!m) continue;
      if (m[1] === 'UseSalesCustom') used.set(m[2]!, f.BooleanValue === true);
      else if (f.StringValue?.trim()) names.set(m[2]!, f.StringValue);
    }
  }
  const fields = [...names].filter(([n]) => used.get(n) !== false).map(([n, name]) => namesOf(name, n));
  return [
    {
      kind: 'customField',
      fields,
      incomplete:
        "QuickBooks' Preferences list only the three legacy sales fields; an Advanced company's other custom fields are not listed there",
    },
  ];
}
