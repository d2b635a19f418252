import { describe, expect, it } from 'vitest';
import { toInvoice } from '../../../connectors/zoho-books/map/invoice.js';
import type { MapContext, SourceRecord } from '../../../src/connector/types.js';
import { contentHash } from '../../../src/pipeline/content-hash.js';
import { mapContext as zohoContext, record } from '../../connectors/zoho-books/fixtures.js';
import { REPAIR_HASH } from '../../../src/pipeline/ledger.js';
import {
  classifyMapped,
  classifyRecord,
  type MappedDecision,
  type RecordDecision,
} from '../../../jobs/pull/classify-record.js';

type Flags = Pick<SourceRecord, 'notForBilling' | 'draft' | 'deleted'>;
const written = { hash: 'h1', version: '2026-03-01T10:00:00.000Z' };

describe('a record a pull read, before mapping (classifyRecord)', () => {
  it.each<[string, Flags, { sourceDeletedAt?: string } | undefined, boolean, RecordDecision]>([
    ['a supplier-only contact', { notForBilling: 'supplier only' }, undefined, false, { kind: 'not-for-billing' }],
    [
      'a supplier-only contact that is also a draft',
      { notForBilling: 'supplier only', draft: true },
      undefined,
      false,
      { kind: 'not-for-billing' },
    ],
    ['a draft on a connection that does not sync drafts', { draft: true }, undefined, false, { kind: 'draft' }],
    ['a draft on a connection that syncs drafts', { draft: true }, undefined, true, { kind: 'map' }],
    [
      'a deleted draft on a connection that does not sync drafts',
      { draft: true, deleted: true },
      undefined,
      false,
      { kind: 'draft' },
    ],
    ['a delete of a record billing holds', { deleted: true }, {}, false, { kind: 'deleted', markSourceDeleted: true }],
    [
      'a delete already marked in the ledger',
      { deleted: true },
      { sourceDeletedAt: '2026-03-01T10:00:00.000Z' },
      false,
      { kind: 'deleted', markSourceDeleted: false },
    ],
    [
      'a delete of a record billing never held',
      { deleted: true },
      undefined,
      false,
      { kind: 'deleted', markSourceDeleted: false },
    ],
    ['an issued, live record', {}, undefined, false, { kind: 'map' }],
  ])('given %s, then %j', (_, record, known, syncDrafts, decision) => {
    expect(classifyRecord(record, known, { syncDrafts })).toEqual(decision);
  });
});

describe('a record a pull mapped (classifyMapped)', () => {
  it.each<
    [
      string,
      string,
      { hash: string; version: string; attachmentUrl?: string } | undefined,
      { ok: false } | { ok: true; hash: string; data?: { documentUrl?: string } },
      MappedDecision,
    ]
  >([
    ['a record that did not map', '2026-03-02T10:00:00.000Z', written, { ok: false }, { kind: 'unmappable' }],
    [
      'a record billing never held',
      '2026-03-02T10:00:00.000Z',
      undefined,
      { ok: true, hash: 'h2' },
      { kind: 'enqueue', repair: false },
    ],
    [
      'a newer version with new content',
      '2026-03-02T10:00:00.000Z',
      written,
      { ok: true, hash: 'h2' },
      { kind: 'enqueue', repair: false },
    ],
    [
      'a newer version with the content billing holds',
      '2026-03-02T10:00:00.000Z',
      written,
      { ok: true, hash: 'h1' },
      { kind: 'unchanged' },
    ],
    [
      'an older version with the content billing holds',
      '2026-02-01T10:00:00.000Z',
      written,
      { ok: true, hash: 'h1' },
      { kind: 'unchanged' },
    ],
    [
      'the content billing holds with the document link it holds',
      '2026-03-02T10:00:00.000Z',
      { ...written, attachmentUrl: 'https://sync.example.test/documents/v1/a.b/invoice-1.pdf' },
      { ok: true, hash: 'h1', data: { documentUrl: 'https://sync.example.test/documents/v1/a.b/invoice-1.pdf' } },
      { kind: 'unchanged' },
    ],
    [
      'the content billing holds with a document link it does not hold yet (links turned on, or a new key)',
      '2026-03-02T10:00:00.000Z',
      written,
      { ok: true, hash: 'h1', data: { documentUrl: 'https://sync.example.test/documents/v1/a.b/invoice-1.pdf' } },
      { kind: 'enqueue', repair: true },
    ],
    [
      'an older version with other content',
      '2026-02-01T10:00:00.000Z',
      written,
      { ok: true, hash: 'h0' },
      { kind: 'stale' },
    ],
    [
      'a record whose repair was asked',
      '2026-03-01T10:00:00.000Z',
      { ...written, hash: REPAIR_HASH },
      { ok: true, hash: 'h1' },
      { kind: 'enqueue', repair: true },
    ],
  ])('given %s, then %j', (_, version, known, mapped, decision) => {
    expect(classifyMapped({ version }, known, mapped)).toEqual(decision);
  });
});

/**
 * A field mapping changed after a record was written: the record is unchanged at the source (same
 * version), only its tags / metaData differ. The content hash covers them, so the pull (and a backfill
 * over the period) sends it again; an unchanged mapping sends nothing.
 */
describe('classifyMapped after a fields mapping change', () => {
  const zoho = record('invoice-einvoiced-tds', 'invoice');
  const hashOf = (fields?: MapContext['fields']) => {
    const mapped = toInvoice(zoho, zohoContext(fields ? { fields } : {}));
    if (!mapped.ok) throw new Error(mapped.message);
    return contentHash(mapped.value);
  };

  it('given a record written before a rule moved its custom field to a tag, when it is mapped again, then it is sent again (the hash covers tags and metaData)', () => {
    const held = { hash: hashOf(), version: zoho.version };
    const after = hashOf([{ from: { customField: 'Project code' }, to: { tag: 'project' } }]);
    expect(after).not.toBe(held.hash);
    expect(classifyMapped(zoho, held, { ok: true, hash: after })).toEqual({ kind: 'enqueue', repair: false });
  });

  it('given the same mapping, when it is mapped again, then it is unchanged and nothing is sent', () => {
    const held = { hash: hashOf(), version: zoho.version };
    expect(classifyMapped(zoho, held, { ok: true, hash: hashOf() })).toEqual({ kind: 'unchanged' });
  });
});
