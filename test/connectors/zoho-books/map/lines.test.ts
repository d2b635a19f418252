import { describe, expect, it } from 'vitest';
import { toInvoice } from '../../../../connectors/zoho-books/map/invoice.js';
import { mapContext, variant } from '../fixtures.js';

describe('line items (map/lines.ts)', () => {
  it('given a line whose quantity × rate − discount is not its item_total, then AMOUNTS_INCONSISTENT on that line', () => {
    const r = toInvoice(
      variant('invoice-intra-state', 'invoice', (i) => (i.line_items[1].quantity = 11)),
      mapContext(),
    );
    expect(r).toMatchObject({ ok: false, reason: 'AMOUNTS_INCONSISTENT', field: 'line_items.1.item_total' });
  });
});
