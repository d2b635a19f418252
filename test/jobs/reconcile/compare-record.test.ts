import { describe, expect, it } from 'vitest';
import { compareRecord, isSourceVoid } from '../../../jobs/reconcile/compare-record.js';
import type { InvoiceRecord } from '../../../src/billing/schemas/index.js';
import type { LedgerEntry } from '../../../src/pipeline/ledger.js';

const entry = (over: Partial<LedgerEntry>): LedgerEntry => ({
  hash: 'h',
  version: '2025-03-01T00:00:00.000Z',
  billingId: 'inv-1',
  writtenAt: 1,
  ...over,
});
const billing = (lifecycleStatus: string) => ({ invoiceId: 'inv-1', lifecycleStatus }) as unknown as InvoiceRecord;
const kinds = (e: LedgerEntry, lifecycleStatus: string) =>
  compareRecord(billing(lifecycleStatus), e, false).map((d) => d.kind);

describe('a ledger version in the future', () => {
  const now = Date.parse('2026-12-07T12:00:00.000Z');
  it('given an entry a far-future delete left (version and delete mark 9999-12-31), when billing lists it, then ledger_ahead_of_source alone, in normal mode; in deep mode the source pass judges it instead', () => {
    const frozen = entry({ version: '9999-12-31T23:59:59.000Z', sourceDeletedAt: '9999-12-31T23:59:59.000Z' });
    expect(compareRecord(billing('FINALIZED'), frozen, false, { now })).toEqual([
      {
        kind: 'ledger_ahead_of_source',
        detail: 'ledger version 9999-12-31T23:59:59.000Z is in the future, marked deleted at 9999-12-31T23:59:59.000Z',
      },
    ]);
    expect(compareRecord(billing('FINALIZED'), frozen, false, { now, futureIsDrift: false })).toEqual([]);
  });

  it('given a version within the clock skew a vendor may have (4 minutes ahead), then no drift', () => {
    expect(compareRecord(billing('FINALIZED'), entry({ version: '2026-12-07T12:04:00.000Z' }), false, { now })).toEqual(
      [],
    );
  });
});

describe('a void is recognised by the lifecycle the connector set, not by status words', () => {
  it("given a source lifecycle 'void' under a status no connector writes today (CANCELLED), when billing still holds it FINALIZED, then void_not_reflected; when VOIDED, then no drift", () => {
    const cancelled = entry({ sourceStatus: 'CANCELLED', sourceLifecycle: 'void' });
    expect(isSourceVoid(cancelled)).toBe(true);
    expect(kinds(cancelled, 'FINALIZED')).toEqual(['void_not_reflected']);
    expect(kinds(cancelled, 'VOIDED')).toEqual([]);
  });

  it("given a source lifecycle 'issued' whose status reads like a void, when billing holds it VOIDED, then void_in_billing_only (the status words are not read)", () => {
    const issued = entry({ sourceStatus: 'void', sourceLifecycle: 'issued' });
    expect(isSourceVoid(issued)).toBe(false);
    expect(kinds(issued, 'VOIDED')).toEqual(['void_in_billing_only']);
  });

  it('given entries written before the lifecycle was kept, then the void statuses the three connectors wrote then (void, VOIDED, voided) still read as void, and others do not', () => {
    for (const s of ['void', 'VOIDED', 'voided']) expect(isSourceVoid(entry({ sourceStatus: s })), s).toBe(true);
    for (const s of ['paid', 'AUTHORISED', 'open', undefined])
      expect(isSourceVoid(entry({ sourceStatus: s })), String(s)).toBe(false);
  });
});
