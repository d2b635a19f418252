import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MapContext, SourceRecord } from '../../../src/connector/types.js';
import { buildLookups, type QboLookups } from '../../../connectors/quickbooks/streams/lookups.js';

/** Test fixtures shaped like QBO payloads (test/fixtures/quickbooks) and the mapping context they use. */
const DIR = fileURLToPath(new URL('../../fixtures/quickbooks/', import.meta.url));

export function fixture<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(readFileSync(`${DIR}${name}.json`, 'utf8')) as T;
}

export const CONNECTION = 'qbo-in';

export function fixtureLookups(): QboLookups {
  return buildLookups(fixture('lookups') as Parameters<typeof buildLookups>[0]);
}

export function mapContext(overrides: Partial<MapContext> = {}, lookups: QboLookups = fixtureLookups()): MapContext {
  return {
    connectionId: CONNECTION,
    originSource: 'EXTERNAL_SYSTEM_B',
    baseCurrency: 'INR',
    lookups: lookups as unknown as Record<string, unknown>,
    ...overrides,
  };
}

export function sourceRecord(raw: Record<string, unknown>): SourceRecord<unknown> {
  return { id: String(raw.Id), version: '2025-01-01T00:00:00.000Z', raw };
}

/** The billing Tax object for GST components, as buildTax writes it (for expected bodies). */
export function gst(parts: { cgst?: number; sgst?: number; igst?: number; rate: number }) {
  const cgst = parts.cgst ?? 0;
  const sgst = parts.sgst ?? 0;
  const igst = parts.igst ?? 0;
  const intra = parts.cgst !== undefined;
  const half = parts.rate / 2;
  const totalGst = Math.round((cgst + sgst + igst) * 100) / 100;
  return {
    total: totalGst,
    gstTax: {
      totalGst,
      totalGstRate: parts.rate,
      cgst,
      cgstRate: intra ? half : 0,
      sgst,
      sgstRate: intra ? half : 0,
      igst,
      igstRate: intra ? 0 : parts.rate,
    },
    cgst,
    sgst,
    igst,
    tds: 0,
  };
}
