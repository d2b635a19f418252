import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MapContext, SourceRecord } from '../../../src/connector/types.js';

const DIR = fileURLToPath(new URL('../../fixtures/zoho-books/', import.meta.url));

/** A JSON fixture from test/fixtures/zoho-books/. */
export function fixture<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(readFileSync(`${DIR}${name}.json`, 'utf8')) as T;
}

/** The map context the fixtures are written for: connection "zoho-in", an INR billing company. */
export function mapContext(over: Partial<MapContext> = {}): MapContext {
  return { connectionId: 'zoho-in', originSource: 'EXTERNAL_SYSTEM_A', baseCurrency: 'INR', lookups: fixture('lookups'), ...over };
}

/** A detail response fixture as the stream hands it to the mapper. */
export function record(name: string, key: 'invoice' | 'creditnote' | 'contact'): SourceRecord<Record<string, unknown>> {
  const raw = fixture<Record<string, Record<string, unknown>>>(name)[key]!;
  const id = String(raw.invoice_id ?? raw.creditnote_id ?? raw.contact_id);
  return { id, version: '2025-02-20T11:11:09.000Z', status: String(raw.status), raw };
}
