import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { BillingBody } from '../../../src/connector/billing-body.js';
import type { MapResult } from '../../../src/mapping/index.js';

/**
 * The generic check of a mapper against recorded data: the result is a valid billing body and equals
 * `test/fixtures/<vendor>/<name>.expected.json` field for field and in the same key order, so it is the
 * same bytes on the wire. Returns the mapper's warnings for the caller to compare.
 */
export function expectExpectedBody(result: MapResult<BillingBody>, vendor: string, name: string): string[] {
  if (!result.ok) throw new Error(`${result.reason}: ${result.message}`);
  expect(BillingBody.safeParse(result.value).success, 'a valid billing body').toBe(true);
  const v = result.value;
  const body = v.kind === 'invoice' ? v.invoice : v.kind === 'credit-note' ? v.creditNote : v.customer;
  const file = new URL(`../../fixtures/${vendor}/${name}.expected.json`, import.meta.url);
  const expected = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  expect(body).toStrictEqual(expected);
  expect(JSON.stringify(body), 'the same keys in the same order').toBe(JSON.stringify(expected));
  return result.warnings ?? [];
}
