import { z } from 'zod';
import { namesOf, type FieldCatalog } from '../../../src/connector/field-catalog.js';
import type { ReadContext } from '../../../src/connector/types.js';
import type { FieldKind } from '../../../src/mapping/place-fields.js';

/** `GET /TrackingCategories`: {TrackingCategories: [{TrackingCategoryID, Name, Status, Options}]}. */
const TrackingCategoriesResponse = z.looseObject({
  TrackingCategories: z
    .array(z.looseObject({ TrackingCategoryID: z.string().nullish(), Name: z.string().nullish() }))
    .nullish(),
});

/**
 * The organisation's tracking categories by Name (and TrackingCategoryID), from
 * `GET /TrackingCategories` (https://developer.xero.com/documentation/api/accounting/trackingcategories;
 * active ones by default: an archived category no longer appears on new documents). One read.
 */
export async function xeroFieldCatalog(ctx: ReadContext, kinds: readonly FieldKind[]): Promise<FieldCatalog[]> {
  if (!kinds.includes('tracking')) return [];
  const res = await ctx.http.request({
    path: 'TrackingCategories',
    endpoint: 'GET /TrackingCategories',
    schema: TrackingCategoriesResponse,
    signal: ctx.signal,
  });
  const list = res.TrackingCategories ?? [];
  return [{ kind: 'tracking', fields: list.map((c) => namesOf(c.Name, c.TrackingCategoryID)) }];
}
