import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  Address,
  Adjustment,
  Contact,
  CreditNoteApplication,
  CreditNoteInput,
  CustomerDetails,
  DateObject,
  Discount,
  InvoiceInput,
  LineItem,
  LineItemDetails,
  Owner,
  RoundingConfig,
  Tax,
  TaxIdentifier,
} from '../../../src/billing/schemas/index.js';
import { CessTax, GstTax, OtherTax, ServiceTax, TdsTax } from '../../../src/billing/schemas/tax.js';
import type { BillingBody, MapContext, SourceRecord } from '../../../src/connector/types.js';
import type { MapResult } from '../../../src/mapping/index.js';

/**
 * Field coverage (docs/field-coverage.md): which fields of the billing input models each vendor's mappers
 * fill. The billing models are walked as zod schemas; every object model ("shape") is one table of the
 * doc, named below. A mapped body is walked along its schema, and a field counts as filled when it is
 * present and — for a field with a schema default — differs from that default (a default is billing's,
 * not the vendor's: `discountSplitByWeight: true` on every body says nothing about the source).
 */

/** The billing input shapes, by the name their table carries in docs/field-coverage.md. */
export const SHAPES: ReadonlyArray<readonly [string, z.ZodType]> = [
  ['InvoiceInput', InvoiceInput],
  ['CreditNoteInput', CreditNoteInput],
  ['CustomerDetails', CustomerDetails],
  ['DateObject', DateObject],
  ['LineItem', LineItem],
  ['LineItemDetails', LineItemDetails],
  ['Tax', Tax],
  ['GstTax', GstTax],
  ['CessTax', CessTax],
  ['ServiceTax', ServiceTax],
  ['TdsTax', TdsTax],
  ['OtherTax', OtherTax],
  ['Discount', Discount],
  ['RoundingConfig', RoundingConfig],
  ['Adjustment', Adjustment],
  ['CreditNoteApplication', CreditNoteApplication],
  ['Address', Address],
  ['Contact', Contact],
  ['Owner', Owner],
  ['TaxIdentifier', TaxIdentifier],
];

const nameOf = new Map<unknown, string>(SHAPES.map(([name, schema]) => [schema, name]));

type Def = { type: string; innerType?: z.ZodType; element?: z.ZodType; in?: z.ZodType; shape?: unknown };
const defOf = (schema: z.ZodType) => (schema as unknown as { def: Def }).def;

/** The schema under optional/nullable/default/pipe wrappers, and the default on the way, if any. */
function unwrap(schema: z.ZodType): { core: z.ZodType; hasDefault: boolean; defaultValue?: unknown } {
  let core = schema;
  let hasDefault = false;
  let defaultValue: unknown;
  for (;;) {
    const def = defOf(core);
    if (def.type === 'default') {
      hasDefault = true;
      defaultValue = (def as unknown as { defaultValue: unknown }).defaultValue;
    }
    if (['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional'].includes(def.type))
      core = def.innerType!;
    else if (def.type === 'pipe') core = def.in!;
    else return { core, hasDefault, defaultValue };
  }
}

const shapeOf = (schema: z.ZodType) => (schema as unknown as { shape: Record<string, z.ZodType> }).shape;

/** The object model inside a field (through arrays), if any. */
function objectInside(schema: z.ZodType): z.ZodType | undefined {
  const { core } = unwrap(schema);
  const def = defOf(core);
  if (def.type === 'object') return core;
  if (def.type === 'array') return objectInside(def.element!);
  return undefined;
}

/** Every shape reachable from the three input bodies, with its fields in schema order. */
export function modelFields(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const visit = (schema: z.ZodType) => {
    const name = nameOf.get(schema);
    if (name === undefined)
      throw new Error(`a billing input object model has no name in SHAPES: ${Object.keys(shapeOf(schema)).join(', ')}`);
    if (out.has(name)) return;
    const fields = Object.keys(shapeOf(schema));
    out.set(name, fields);
    for (const f of fields) {
      const inner = objectInside(shapeOf(schema)[f]!);
      if (inner) visit(inner);
    }
  };
  visit(InvoiceInput);
  visit(CreditNoteInput);
  visit(CustomerDetails);
  return out;
}

/** Adds to `filled` ("Shape.field") every field the value sets, walking it along its schema. */
function collect(schema: z.ZodType, value: unknown, filled: Set<string>): void {
  const { core } = unwrap(schema);
  const def = defOf(core);
  if (def.type === 'array' && Array.isArray(value)) {
    for (const v of value) collect(def.element!, v, filled);
    return;
  }
  if (def.type !== 'object' || value === null || typeof value !== 'object') return;
  const name = nameOf.get(core)!;
  for (const [field, fieldSchema] of Object.entries(shapeOf(core))) {
    const v = (value as Record<string, unknown>)[field];
    if (v === undefined) continue;
    const { hasDefault, defaultValue } = unwrap(fieldSchema);
    if (!hasDefault || JSON.stringify(v) !== JSON.stringify(defaultValue)) filled.add(`${name}.${field}`);
    collect(fieldSchema, v, filled);
  }
}

/** The fields a mapped body fills ("Shape.field"). */
export function filledBy(body: BillingBody): Set<string> {
  const filled = new Set<string>();
  if (body.kind === 'invoice') collect(InvoiceInput, body.invoice, filled);
  else if (body.kind === 'credit-note') collect(CreditNoteInput, body.creditNote, filled);
  else collect(CustomerDetails, body.customer, filled);
  return filled;
}

/** The vendors, as their columns are headed in docs/field-coverage.md. */
export const VENDORS = ['Zoho Books', 'QuickBooks', 'Xero'] as const;
export type Vendor = (typeof VENDORS)[number];

/** One declaration: the cell of docs/field-coverage.md for a vendor's field. */
export type Declaration = { absent: boolean; text: string };

/**
 * docs/field-coverage.md's tables: a `### <Shape>` heading, then `| Field | Zoho Books | QuickBooks | Xero |`
 * and a row per field. A cell that starts with "none", "not mapped", "no fixture", "default" or "pending"
 * declares the field not filled for that vendor (the doc says which and why); any other cell names where
 * the vendor's value comes from, and the field must then be filled.
 */
const ABSENT = /^\**(none|not mapped|no fixture|default|pending)\b/i;

export function parseCoverageDoc(markdown: string): Map<string, Map<string, Record<Vendor, Declaration>>> {
  const tables = new Map<string, Map<string, Record<Vendor, Declaration>>>();
  let shape: string | undefined;
  let columns: string[] | undefined;
  for (const line of markdown.split('\n')) {
    const heading = /^###\s+`?([A-Za-z]+)`?\s*$/.exec(line);
    if (heading) {
      shape = heading[1]!;
      columns = undefined;
      continue;
    }
    if (!shape || !line.startsWith('|')) {
      if (!line.startsWith('|')) columns = columns && line.trim() === '' ? columns : undefined;
      continue;
    }
    const cells = line
      .slice(1, line.trimEnd().endsWith('|') ? line.trimEnd().length - 1 : undefined)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
    if (!columns) {
      columns = cells;
      continue;
    }
    if (cells.every((c) => /^:?-+:?$/.test(c))) continue;
    const field = cells[0]!.replace(/`/g, '');
    const row = {} as Record<Vendor, Declaration>;
    for (const vendor of VENDORS) {
      const text = cells[columns.indexOf(vendor)] ?? '';
      row[vendor] = { absent: ABSENT.test(text), text };
    }
    if (!tables.has(shape)) tables.set(shape, new Map());
    tables.get(shape)!.set(field, row);
  }
  return tables;
}

export function readCoverageDoc(): string {
  return readFileSync(fileURLToPath(new URL('../../../docs/field-coverage.md', import.meta.url)), 'utf8');
}

/** One fixture mapped: its file, and the mapper's result. */
export type Mapped = { file: string; result: MapResult<BillingBody> };

/** The raw fixtures (not expected bodies, not lookups) of test/fixtures/<folder>/, sorted. */
export function fixtureFiles(folder: string, exclude: RegExp): string[] {
  const dir = fileURLToPath(new URL(`../../fixtures/${folder}/`, import.meta.url));
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json') && !exclude.test(f))
    .sort();
}

export type Mapper = (record: SourceRecord, ctx: MapContext) => MapResult<BillingBody>;
