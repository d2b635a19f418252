import type { FlatObject } from '../../../src/billing/schemas/primitives.js';
import { nonBlank } from '../../../src/mapping/index.js';
import { nonEmpty, placeFields, type FieldRule, type FoundField } from '../../../src/mapping/place-fields.js';
import type { Steps } from '../../../src/mapping/steps.js';
import type { XeroContact, XeroLineItem } from '../schemas.js';

/**
 * Xero's tracking categories → billing `tags`. Xero tracks on the line, not the document: each line
 * carries up to two `Tracking` entries `{TrackingCategoryID, TrackingOptionID, Name, Option}` (Name =
 * the category, e.g. "Region"; Option = the chosen option, e.g. "South";
 * https://developer.xero.com/documentation/api/accounting/invoices, LineItems.Tracking;
 * https://developer.xero.com/documentation/api/accounting/trackingcategories). Billing's tags are one flat
 * object per document, so each category becomes one key, named as in Xero, whose value is its option;
 * when lines of one document name different options of a category, the value lists them, distinct, in
 * line order, joined by ", " ("North, South"), so no option is dropped. Lines without tracking add
 * nothing; no tracking at all → undefined (no `tags`).
 *
 * A connection's `fields` rule naming a category (`from: { tracking: "Region" }`) sends it to the tag or
 * metaData key it names instead (src/mapping/place-fields.ts); `base` is the mapper's own metaData.
 */
export function trackingFieldsOf(
  s: Steps,
  lines: readonly XeroLineItem[] | null | undefined,
  rules: readonly FieldRule[] | undefined,
  base: FlatObject,
): { tags?: FlatObject; metaData: FlatObject } {
  return placed(s, asFound(trackingTagsOf(lines), 'LineItems.Tracking'), rules, base);
}

/** The tracking on a contact (below) placed by the connection's `fields` rules, as trackingFieldsOf. */
export function contactFieldsOf(
  s: Steps,
  contact: Pick<XeroContact, 'SalesTrackingCategories'>,
  rules: readonly FieldRule[] | undefined,
  base: FlatObject,
): { tags?: FlatObject; metaData: FlatObject } {
  return placed(s, asFound(contactTagsOf(contact), 'SalesTrackingCategories'), rules, base);
}

/** Each category (name → option) as a field found, going by default to the tag of its name. */
function asFound(byCategory: FlatObject | undefined, where: string): FoundField[] {
  return Object.entries(byCategory ?? {}).map(([name, value]) => ({
    kind: 'tracking',
    names: [name],
    value: value as string,
    default: { tag: name },
    where: `${where} "${name}"`,
  }));
}

function placed(s: Steps, found: FoundField[], rules: readonly FieldRule[] | undefined, base: FlatObject) {
  const p = placeFields((m) => s.warn(m), found, rules, { metaData: base });
  const tags = nonEmpty(p.tags);
  return { ...(tags ? { tags } : {}), metaData: p.metaData };
}

export function trackingTagsOf(lines: readonly XeroLineItem[] | null | undefined): FlatObject | undefined {
  const options = new Map<string, string[]>();
  for (const line of lines ?? []) {
    for (const t of line.Tracking ?? []) {
      const name = nonBlank(t.Name);
      const option = nonBlank(t.Option);
      if (!name || !option) continue;
      const seen = options.get(name) ?? [];
      if (!seen.includes(option)) seen.push(option);
      options.set(name, seen);
    }
  }
  if (options.size === 0) return undefined;
  return Object.fromEntries([...options].map(([name, list]) => [name, list.join(', ')]));
}

/**
 * A contact's default sales tracking (`SalesTrackingCategories[] {TrackingCategoryName,
 * TrackingOptionName}`: "the default sales tracking categories for contacts",
 * https://developer.xero.com/documentation/api/accounting/contacts) → the customer's `tags`, one key per
 * category. Undefined when there is none.
 */
export function contactTagsOf(contact: Pick<XeroContact, 'SalesTrackingCategories'>): FlatObject | undefined {
  const tags: FlatObject = {};
  for (const t of contact.SalesTrackingCategories ?? []) {
    const name = nonBlank(t.TrackingCategoryName);
    const option = nonBlank(t.TrackingOptionName);
    if (name && option) tags[name] = option;
  }
  return Object.keys(tags).length > 0 ? tags : undefined;
}
