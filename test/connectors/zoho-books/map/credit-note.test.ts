import { describe, expect, it } from 'vitest';
import { toCreditNote } from '../../../../connectors/zoho-books/map/credit-note.js';
import { fixture, mapContext, record, variant } from '../fixtures.js';

describe('toCreditNote (map/credit-note.ts)', () => {
  it('given a credit note applied to two invoices, then the body lists both applications by billing invoiceId and number', () => {
    const result = toCreditNote(record('credit-note-two-invoices', 'creditnote'), mapContext());
    if (!result.ok) throw new Error(`${result.reason}: ${result.message}`);
    expect(result.value).toEqual({ kind: 'credit-note', creditNote: fixture('credit-note-two-invoices.expected') });
  });

  it('given credit applied beyond the credit note total, then AMOUNTS_INCONSISTENT', () => {
    const r = toCreditNote(
      variant('credit-note-two-invoices', 'creditnote', (c) => (c.invoices[1].amount = 900)),
      mapContext(),
    );
    expect(r).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT', field: 'invoices' });
  });
});
