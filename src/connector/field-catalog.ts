import type { FieldKind } from '../mapping/place-fields.js';

/**
 * The fields of one kind an organisation has (its custom fields, reporting tags or tracking
 * categories), as read from the vendor's settings: what `erp-sync check` holds a connection's `fields`
 * rules against. Each entry lists every name the vendor knows the field by (label, api_name, id), as the
 * mapper matches them (src/mapping/place-fields.ts).
 */
export interface FieldCatalog {
  kind: FieldKind;
  fields: ReadonlyArray<ReadonlyArray<string>>;
  /**
   * Set when the vendor's list may miss fields that records still carry (QuickBooks' Preferences name
   * only the legacy sales fields): a rule naming none of them is a warning then, not a failure.
   */
  incomplete?: string;
}

/** Reads the organisation's fields of these kinds: one vendor read per kind. */
export type ReadFieldCatalog<Ctx> = (ctx: Ctx, kinds: readonly FieldKind[]) => Promise<FieldCatalog[]>;

/** Names as a catalog entry: trimmed, blanks and duplicates left out. */
export function namesOf(...names: ReadonlyArray<string | number | null | undefined>): string[] {
  return [...new Set(names.map((n) => (n === null || n === undefined ? '' : String(n).trim())).filter(Boolean))];
}
