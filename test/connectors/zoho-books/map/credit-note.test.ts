import { describe, expect, it } from 'vitest';
import { toCreditNote } from '../../../../connectors/zoho-books/map/credit-note.js';
import { mapContext, variant } from '../fixtures.js';

describe('toCreditNote (map/credit-note.ts)', () => {
  it('given credit applied beyond the credit note total, then AMOUNTS_INCONSISTENT', () => {
    const r = toCreditNote(
      variant('credit-note-two-invoices', 'creditnote', (c) => (c.invoices[1].amount = 900)),
      mapContext(),
    );
    expect(r).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT', field: 'invoices' });
  });
});
