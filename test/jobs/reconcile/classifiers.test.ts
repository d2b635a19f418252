import { describe, expect, it } from 'vitest';
import { classifyBillingOnly } from '../../../jobs/reconcile/billing-only.js';
import { classifyUnseenEntry } from '../../../jobs/reconcile/ledger-pass.js';
import { classifyRepairRecord } from '../../../jobs/reconcile/repair-by-id.js';
import { classifySourceRecord } from '../../../jobs/reconcile/source-side.js';

/** The decisions of a reconcile's passes, each a pure table (the passes themselves run against Redis and the emulators). */
const inWindow = (day: string) => (ms: number | string) =>
  new Date(typeof ms === 'string' ? Date.parse(ms) : ms).toISOString().slice(0, 10) === day;

describe('classifySourceRecord: a source record of a deep read against its ledger entry', () => {
  const read = (syncDrafts: boolean) => ({ syncDrafts, inWindow: inWindow('2026-02-10') });
  const V = '2026-02-10T12:00:00Z';
  it.each([
    ['deleted, the ledger not told', { deleted: true, version: V }, { version: V }, false, 'mark-deleted'],
    [
      'deleted, the ledger told',
      { deleted: true, version: V },
      { version: V, sourceDeletedAt: V },
      false,
      'known-deleted',
    ],
    ['deleted, never synced', { deleted: true, version: V }, undefined, false, 'known-deleted'],
    ['changed outside the window', { version: '2026-02-11T00:00:00Z' }, undefined, false, 'outside'],
    ['a draft never written, drafts not synced', { draft: true, version: V }, undefined, false, 'draft'],
    ['a draft never written, drafts synced', { draft: true, version: V }, undefined, true, 'missing'],
    ['a draft written before', { draft: true, version: V }, { version: V }, false, 'in-step'],
    ['never synced', { version: V }, undefined, false, 'missing'],
    ['the ledger older', { version: V }, { version: '2026-02-09T00:00:00Z' }, false, 'stale'],
    ['the ledger at its version', { version: V }, { version: V }, false, 'in-step'],
    [
      'the ledger newer than the source (a version it never had)',
      { version: V },
      { version: '9999-12-31T23:59:59.000Z' },
      false,
      'ahead',
    ],
    [
      'the ledger marks deleted a record the source has live',
      { version: V },
      { version: V, sourceDeletedAt: V },
      false,
      'ahead',
    ],
  ] as const)('given %s, then %s', (_given, record, entry, syncDrafts, verdict) => {
    expect(classifySourceRecord(record, entry, read(syncDrafts))).toBe(verdict);
  });
});

describe('classifyUnseenEntry: a ledger entry of the window that billing’s window did not show', () => {
  it.each([
    ['in billing, deleted in the source in this window', true, '2026-02-10T08:00:00Z', 'delete-not-reflected'],
    ['in billing, deleted in the source another day', true, '2026-02-01T08:00:00Z', 'counted-elsewhere'],
    ['in billing, live in the source', true, undefined, 'counted-elsewhere'],
    ['not in billing, deleted in the source', false, '2026-02-01T08:00:00Z', 'gone-as-deleted'],
    ['not in billing, live in the source', false, undefined, 'absent'],
  ] as const)('given %s, then %s', (_given, inBilling, sourceDeletedAt, kind) => {
    expect(classifyUnseenEntry({ sourceDeletedAt }, inBilling, inWindow('2026-02-10'))).toBe(kind);
  });
});

describe('classifyBillingOnly: billing’s record of an invoice-date window that no walked ledger dates there', () => {
  const d = { invoiceId: 'inv-1', invoiceNumber: 'INV-1', invoiceDate: '2026-02-10' };
  it.each([
    ['no ledger holds it', undefined, false, 'orphan_in_billing'],
    ['a connection not walked holds it', { billingId: 'inv-1' }, false, undefined],
    ['a walked ledger holds another billing invoice for it', { billingId: 'inv-2' }, true, 'duplicate'],
    [
      'a walked ledger dates it elsewhere',
      { billingId: 'inv-1', fields: { invoiceDate: '2026-02-09' } },
      true,
      'field_mismatch',
    ],
  ] as const)('given %s, then %s', (_given, entry, owned, kind) => {
    expect(classifyBillingOnly('e1', d, entry, owned, 'invoice dates 2026-02-10..2026-02-10')?.kind).toBe(kind);
  });
});

describe('classifyRepairRecord: a record read again by id', () => {
  it.each([
    ['deleted in the source', { deleted: true }, false, 'deleted'],
    ['not for billing', { notForBilling: 'a proforma' }, false, 'not-for-billing'],
    ['a draft, drafts not synced', { draft: true }, false, 'draft'],
    ['a draft, drafts synced', { draft: true }, true, 'write'],
    ['a live record', {}, false, 'write'],
  ] as const)('given %s, then %s', (_given, record, syncDrafts, kind) => {
    expect(classifyRepairRecord(record, syncDrafts)).toBe(kind);
  });
});
