import type { FlatObject } from '../../../src/billing/schemas/primitives.js';
import { nonBlank } from '../../../src/mapping/index.js';
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
 */
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
