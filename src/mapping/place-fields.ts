import type { FlatObject } from '../billing/schemas/primitives.js';

/**
 * Where each company's own fields go in billing: the one piece every vendor mapper hands its vendor
 * custom fields, reporting tags and tracking categories to, so a connection's `fields` mapping
 * (docs/configuration.md, "Field mapping") means the same thing for every vendor.
 *
 * A mapper lists what it found on the record (`FoundField`: the kind, every name the vendor knows it by,
 * its value, and where it goes by default); `placeFields` puts each one where the connection's mapping
 * sends it, else at its default place, else nowhere. A mapping moves a field: it is no longer sent at its
 * default place. Without mappings every field goes to its default place, as before mappings existed.
 */

/** What a mapping's `from` names: a vendor custom field, a Zoho reporting tag, a Xero tracking category. */
export type FieldKind = 'customField' | 'reportingTag' | 'tracking';
export const FIELD_KINDS: readonly FieldKind[] = ['customField', 'reportingTag', 'tracking'];

/** Where a field goes in billing: a key of `tags` or (else) a key of `metaData`; the config names exactly one. */
export interface FieldTarget {
  tag?: string;
  metaData?: string;
}

/** One rule of a connection's `fields` (the config schema's shape, structurally). */
export interface FieldRule {
  from: Partial<Record<FieldKind, string>>;
  to: FieldTarget;
}

export type FieldValue = string | number | boolean;

/** A field the mapper found on the record. */
export interface FoundField {
  kind: FieldKind;
  /** Every name the vendor knows it by (label, api_name, DefinitionId…); a rule matches any of them. */
  names: ReadonlyArray<string | null | undefined>;
  value: FieldValue;
  /** Its place without a mapping; undefined: only sent when a mapping names it. */
  default?: FieldTarget;
  /** Where it is on the record, for warnings ("custom_fields.2"). */
  where: string;
}

export interface PlacedFields {
  tags: FlatObject;
  metaData: FlatObject;
}

/** The rule's source name when it is of this kind. */
const ruleName = (rule: FieldRule, kind: FieldKind): string | undefined => rule.from[kind]?.trim() || undefined;

/** The first rule that names this field (by kind and any of its names). */
export function ruleFor(rules: readonly FieldRule[], field: Pick<FoundField, 'kind' | 'names'>): FieldRule | undefined {
  const names = new Set(field.names.map((n) => n?.trim()).filter((n): n is string => !!n));
  return rules.find((r) => {
    const name = ruleName(r, field.kind);
    return name !== undefined && names.has(name);
  });
}

/**
 * Places each found field, in the order found. `base` holds what the mapper itself already put in
 * `tags` / `metaData` (QuickBooks' Class, the source metadata): a field whose key is already taken, by
 * the base or by an earlier field, keeps the first value, with a warning, so nothing is overwritten
 * silently.
 */
export function placeFields(
  warn: (message: string) => void,
  found: readonly FoundField[],
  rules: readonly FieldRule[] | undefined,
  base: Partial<PlacedFields> = {},
): PlacedFields {
  const placed: PlacedFields = { tags: { ...base.tags }, metaData: { ...base.metaData } };
  for (const field of found) {
    const target = (rules && ruleFor(rules, field)?.to) ?? field.default;
    const place = target && placeOf(placed, target);
    if (!place) continue;
    const [bucket, key, label] = place;
    if (key in bucket) {
      warn(`${field.where} repeats a ${label} already set; the first value is kept`);
      continue;
    }
    bucket[key] = field.value;
  }
  return placed;
}

function placeOf(placed: PlacedFields, target: FieldTarget): [FlatObject, string, string] | undefined {
  if (target.tag !== undefined) return [placed.tags, target.tag, 'tag'];
  if (target.metaData !== undefined) return [placed.metaData, target.metaData, `metaData key (${target.metaData})`];
  return undefined;
}

/**
 * The mapper's own metaData with the fields placed there added after it: a key the mapper already
 * writes keeps the mapper's value, with a warning (for mappers that build their metaData after placing).
 */
export function withPlacedMeta(warn: (message: string) => void, own: FlatObject, placed: FlatObject): FlatObject {
  const out: FlatObject = { ...own };
  for (const [key, value] of Object.entries(placed)) {
    if (key in out) warn(`a field mapped to metaData key "${key}" is left out: the sync writes that key itself`);
    else out[key] = value;
  }
  return out;
}

/** An empty object as undefined (the billing body leaves `tags` out rather than sending {}). */
export function nonEmpty(o: FlatObject): FlatObject | undefined {
  return Object.keys(o).length > 0 ? o : undefined;
}
