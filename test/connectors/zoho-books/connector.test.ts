import { describe, expect, it } from 'vitest';
import zohoBooks from '../../../connectors/zoho-books/index.js';
import { connector } from '../../../connectors/zoho-books/connector.js';
import { Settings } from '../../../connectors/zoho-books/settings.js';

describe('the connector definition (connector.ts)', () => {
  const base = { organizationId: '60012345678', clientId: 'c', clientSecret: 's', refreshToken: 'r' };

  it('given the connector, then it has the three streams, unsorted, with state that round-trips, and a 90/min, 5-concurrent budget whose daily cap comes from settings', () => {
    const c = connector;
    expect(zohoBooks).toBe(connector);
    expect(c.id).toBe('zoho-books');
    expect(Object.keys(c.streams).sort()).toEqual(['credit-notes', 'customers', 'invoices']);
    for (const s of Object.values(c.streams)) {
      expect(s.isSorted).toBe(false);
      expect(s.cursorField).toBe('last_modified_time');
      expect(s.state.parse(s.initialState('2025-01-01T00:00:00.000Z'))).toEqual({ cursor: '2025-01-01T00:00:00.000Z' });
      expect(s.initialState()).toEqual({ cursor: null });
      expect(typeof s.listIds).toBe('function');
    }
    expect([
      c.streams.invoices.supportsWindow,
      c.streams['credit-notes'].supportsWindow,
      c.streams.customers.supportsWindow,
    ]).toEqual([true, true, false]);
    expect(c.rateBudget).toEqual({ perMinute: 90, perDay: 1000, concurrency: 5 });
    expect(c.rateBudgetFor!(Settings.parse({ ...base, dailyCallLimit: 5000 }))).toEqual({
      perMinute: 90,
      perDay: 5000,
      concurrency: 5,
    });
    // The plan sets the daily cap; an explicit dailyCallLimit (a limit Zoho raised, or 0 for none) wins.
    const perDay = (over: object) => c.rateBudgetFor!(Settings.parse({ ...base, ...over })).perDay;
    expect([
      perDay({}),
      perDay({ plan: 'standard' }),
      perDay({ plan: 'professional' }),
      perDay({ plan: 'premium' }),
    ]).toEqual([1000, 2000, 5000, 10_000]);
    expect([
      perDay({ plan: 'standard', dailyCallLimit: 3000 }),
      perDay({ plan: 'premium', dailyCallLimit: 0 }),
    ]).toEqual([3000, 0]);
  });
});
