import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELD_CODES } from '../../src/pipeline/ledger-entry-codec.js';
import {
  decodeHistoryEntry,
  encodeHistoryEntry,
  HISTORY_OUTCOMES,
  HISTORY_PATHS,
  type HistoryEntry,
} from '../../src/pipeline/record-history-codec.js';

const context = { connection: 'zoho-in', erpId: '1114000000012345' };

/** A write as the upsert's SETTLE tells it: ISO version, 12 hex of the hash, the pull's job id, billing's id. */
const write: HistoryEntry = {
  outcome: 'written',
  at: Date.parse('2026-11-27T10:15:00.123Z'),
  version: '2026-11-27T10:14:58.000Z',
  hash: '9f86d081884c',
  path: 'poll',
  by: 'up-zoho-in-inv-1114000000012345-9f86d081884c7d65',
  billingId: 'inv.zoho-in.1114000000012345',
  changed: ['invoiceTotal', 'invoiceTax', 'digest:lineItems'],
};

/** Strings that contain what the form uses: separators, markers, escapes, the context's own ids. */
const awkward = fc.oneof(
  fc.string({ minLength: 1 }),
  fc.stringMatching(/^[%|,*@#~=_\-0-9a-z]{1,12}$/),
  fc
    .tuple(fc.string(), fc.constantFrom(context.connection, context.erpId, '%7C', '*', '@'), fc.string())
    .map(([a, b, c]) => `${a}${b}${c}`),
);
const version = fc.oneof(
  fc.date({ min: new Date(0), max: new Date('2200-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
  fc
    .date({ min: new Date(0), max: new Date('2200-01-01'), noInvalidDate: true })
    .map((d) => new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z')),
  fc.string(),
  awkward,
);
const entry: fc.Arbitrary<HistoryEntry> = fc.record(
  {
    outcome: fc.constantFrom(...HISTORY_OUTCOMES),
    at: fc.integer({ min: 0, max: 7_258_118_400_000 }),
    version,
    hash: fc.oneof(fc.stringMatching(/^[0-9a-f]{12}$/), awkward),
    path: fc.constantFrom(...HISTORY_PATHS),
    by: awkward,
    billingId: awkward,
    changed: fc.array(fc.oneof(fc.constantFrom(...Object.keys(FIELD_CODES)), fc.string(), awkward), { maxLength: 6 }),
    reason: awkward,
  },
  { requiredKeys: ['outcome', 'at'] },
);
const contexts = fc.oneof(
  fc.constant(context),
  fc.record({ connection: fc.string({ minLength: 1 }), erpId: fc.string({ minLength: 1 }) }),
);

describe('record history codec', () => {
  it('given any entry (odd strings included), when encoded and decoded with its record, then the same entry comes back', () => {
    fc.assert(
      fc.property(contexts, entry, (ctx, e) => {
        expect(decodeHistoryEntry(ctx, encodeHistoryEntry(ctx, e))).toEqual(e);
      }),
      { numRuns: 2_000 },
    );
  });

  it('given a typical write, when encoded, then it takes under 80 bytes (the connection and ERP id written once per record, not per entry)', () => {
    const stored = encodeHistoryEntry(context, write);
    expect(stored).toBe('w|mwytrsbf|mwytrqog|9f86d081884c|p|up-@-inv-*-#7d65|inv.@.*|h,g,w');
    expect(Buffer.byteLength(stored)).toBeLessThan(80);
    expect(decodeHistoryEntry(context, stored)).toEqual(write);
  });

  it('given a write with no previous write to compare with, and one where none of the compared fields changed, then the two stay apart', () => {
    const first = { ...write, changed: undefined };
    delete first.changed;
    expect(decodeHistoryEntry(context, encodeHistoryEntry(context, first))).toEqual(first);
    const same = { ...write, changed: [] };
    expect(decodeHistoryEntry(context, encodeHistoryEntry(context, same)).changed).toEqual([]);
  });

  it('given an entry with an unknown outcome code, when decoded, then the error names the stored text', () => {
    expect(() => decodeHistoryEntry(context, 'Z|1')).toThrow('unknown outcome code "Z" in "Z|1"');
  });
});
