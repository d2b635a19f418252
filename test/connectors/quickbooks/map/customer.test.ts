import { describe, expect, it } from 'vitest';
import { toCustomer } from '../../../../connectors/quickbooks/map/customer.js';
import { mapContext, sourceRecord } from '../fixtures.js';

/** The full bodies of the customer fixtures: expected-bodies.test.ts. */
describe('QuickBooks customer → billing customer', () => {
  it('given a customer with no name at all, then MISSING_FIELD', () => {
    const raw = { Id: '5', MetaData: { LastUpdatedTime: '2025-01-01T00:00:00+05:30' } };
    expect(toCustomer(sourceRecord(raw), mapContext())).toMatchObject({ ok: false, reason: 'MISSING_FIELD' });
  });
});
