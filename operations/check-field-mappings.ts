import type { FieldCatalog } from '../src/connector/field-catalog.js';
import { FIELD_KINDS, type FieldKind, type FieldRule } from '../src/mapping/place-fields.js';

/** One rule the organisation lacks the field of: its index in `fields`, kind and name. */
export interface MissingField {
  index: number;
  kind: FieldKind;
  name: string;
  /** True when the vendor's list may be incomplete (a warning, not a failure). */
  uncertain: boolean;
}

/** The kinds of field a connection's rules name, in FIELD_KINDS order. */
export function kindsOf(rules: readonly FieldRule[]): FieldKind[] {
  return FIELD_KINDS.filter((k) => rules.some((r) => r.from[k] !== undefined));
}

/**
 * Each rule held against the fields the organisation has (its vendor's catalog): the rules naming a
 * field no entry of its kind is known by. A kind the catalog does not list is not judged.
 */
export function missingFields(rules: readonly FieldRule[], catalog: readonly FieldCatalog[]): MissingField[] {
  const missing: MissingField[] = [];
  rules.forEach((rule, index) => {
    const kind = FIELD_KINDS.find((k) => rule.from[k] !== undefined);
    const name = kind && rule.from[kind]!.trim();
    const list = catalog.find((c) => c.kind === kind);
    if (!kind || !name || !list) return;
    if (list.fields.some((names) => names.includes(name))) return;
    missing.push({ index, kind, name, uncertain: list.incomplete !== undefined });
  });
  return missing;
}
