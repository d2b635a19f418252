import type { FlatObject } from '../../../src/billing/schemas/primitives.js';
import { nonBlank } from '../../../src/mapping/index.js';
import { nonEmpty, placeFields, type FieldRule, type FoundField } from '../../../src/mapping/place-fields.js';
import type { Steps } from '../../../src/mapping/steps.js';
import type { QboCustomField, QboLine, QboRef } from '../schemas.js';

/**
 * A sales transaction's classification → billing `tags` (one flat object per document):
 * - `Class`: ClassRef's name (the transaction's class); where the company classes each line instead, the
 *   lines' SalesItemLineDetail.ClassRef names, distinct, in line order, joined by ", ".
 * - `Department`: DepartmentRef's name (QuickBooks' UI calls departments "locations").
 *   Both refs: https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/invoice
 *   (ClassRef, DepartmentRef; line ClassRef under SalesItemLineDetail).
 * - every custom field with a value, under its `Name`: StringValue as text, NumberValue as a number,
 *   DateValue (YYYY-MM-DD) as text, BooleanValue as a boolean, by its `Type` (Intuit writes it
 *   `StringType` and, in some published examples, `STRING_TYPE`). Legacy fields carry up to three
 *   StringType values; with `include=enhancedAllCustomFields` (the stream asks for it) every custom field of
 *   an Advanced company comes back, of every type
 *   (https://developer.intuit.com/app/developer/qbo/docs/workflows/create-custom-fields/get-started,
 *   https://developer.intuit.com/app/developer/qbo/docs/workflows/create-custom-fields). A field without a
 *   value is left out; a custom field named like a key already taken (`Class`, `Department`, or a second
 *   field of the same name) keeps the first value, with a warning, so nothing is overwritten silently.
 * A ref without a name (QBO sends `name` on reads, but it is optional) is left out with a warning: tags
 * carry names a person can filter on, never bare ids.
 *
 * A connection's `fields` rule naming a custom field (by Name or DefinitionId) sends it to the tag or
 * metaData key it names instead (src/mapping/place-fields.ts); `metaData` holds those sent there, for
 * the mapper to add to its own (withPlacedMeta).
 */
export function tagsOf(
  s: Steps,
  doc: { ClassRef?: QboRef; DepartmentRef?: QboRef; CustomField?: QboCustomField[]; Line?: QboLine[] },
  rules?: readonly FieldRule[],
): { tags?: FlatObject; metaData: FlatObject } {
  const tags: FlatObject = {};
  const named = (ref: QboRef | undefined, field: string): string | undefined => {
    if (!ref) return undefined;
    const name = nonBlank(ref.name);
    if (!name) s.warn(`${field} ${ref.value} has no name; not sent as a tag`);
    return name;
  };
  const lineClasses = [
    ...new Set(
      (doc.Line ?? []).flatMap((l, i) => {
        const name = named(l.SalesItemLineDetail?.ClassRef, `Line.${i}.SalesItemLineDetail.ClassRef`);
        return name ? [name] : [];
      }),
    ),
  ];
  const cls = named(doc.ClassRef, 'ClassRef') ?? (lineClasses.length ? lineClasses.join(', ') : undefined);
  if (cls) tags.Class = cls;
  const department = named(doc.DepartmentRef, 'DepartmentRef');
  if (department) tags.Department = department;

  const found: FoundField[] = [];
  for (const [i, field] of (doc.CustomField ?? []).entries()) {
    const name = nonBlank(field.Name);
    const value = customValueOf(field);
    if (value === undefined || (!name && !field.DefinitionId)) continue;
    found.push({
      kind: 'customField',
      names: [name, field.DefinitionId],
      value,
      ...(name ? { default: { tag: name } } : {}),
      where: `CustomField.${i} "${name ?? field.DefinitionId}"`,
    });
  }
  const placed = placeFields((m) => s.warn(m), found, rules, { tags });
  const out = nonEmpty(placed.tags);
  return { ...(out ? { tags: out } : {}), metaData: placed.metaData };
}

/** A custom field's value by its type; undefined when it has none. */
function customValueOf(field: QboCustomField): string | number | boolean | undefined {
  const type = (field.Type ?? '').replace(/_/g, '').toLowerCase();
  if (type === 'numbertype' && field.NumberValue !== undefined) {
    const n = Number(field.NumberValue);
    return Number.isFinite(n) ? n : undefined;
  }
  if (type === 'booleantype' && typeof field.BooleanValue === 'boolean') return field.BooleanValue;
  if (type === 'datetype') return nonBlank(field.DateValue?.slice(0, 10));
  return nonBlank(field.StringValue);
}
