import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { InvoiceInput } from '../../../src/billing/schemas/index.js';
import type { BillingBody, MapContext, SourceRecord } from '../../../src/connector/types.js';
import type { MapResult } from '../../../src/mapping/index.js';
import type { ZohoLookups } from '../../../connectors/zoho-books/streams/lookups.js';

const DIR = fileURLToPath(new URL('../../fixtures/zoho-books/', import.meta.url));

/** A JSON fixture from test/fixtures/zoho-books/. */
export function fixture<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(readFileSync(`${DIR}${name}.json`, 'utf8')) as T;
}

/** The organisation and tax settings the fixtures are written for (a fresh copy each time). */
export const lookups = () => fixture<ZohoLookups>('lookups');

/** The map context the fixtures are written for: connection "zoho-in", an INR billing company. */
export function mapContext(over: Partial<MapContext<ZohoLookups>> = {}): MapContext<ZohoLookups> {
  return {
    connectionId: 'zoho-in',
    originSource: 'EXTERNAL_SYSTEM_A',
    baseCurrency: 'INR',
    lookups: lookups(),
    ...over,
  };
}

/** A detail response fixture as the stream hands it to the mapper. */
export function record(name: string, key: 'invoice' | 'creditnote' | 'contact'): SourceRecord<Record<string, unknown>> {
  const raw = fixture<Record<string, Record<string, unknown>>>(name)[key]!;
  const id = String(raw.invoice_id ?? raw.creditnote_id ?? raw.contact_id);
  return { id, version: '2025-02-20T11:11:09.000Z', status: String(raw.status), raw };
}

type Raw = Record<string, any>;

/** A fixture's record, changed by `edit`, as a SourceRecord. */
export function variant(
  name: string,
  key: 'invoice' | 'creditnote' | 'contact',
  edit: (raw: Raw) => void = () => {},
): SourceRecord<Raw> {
  const raw = structuredClone(fixture<Record<string, Raw>>(name)[key]!);
  edit(raw);
  return { id: 'x', version: '2025-01-01T00:00:00.000Z', raw };
}

/** The invoice of a mapping that must have succeeded. */
export function invoiceOf(result: MapResult<BillingBody>): InvoiceInput {
  if (!result.ok) throw new Error(`${result.reason}: ${result.message}`);
  if (result.value.kind !== 'invoice') throw new Error('not an invoice');
  return result.value.invoice;
}
