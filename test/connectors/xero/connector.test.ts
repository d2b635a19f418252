import { describe, expect, it } from 'vitest';
import xero from '../../../connectors/xero/index.js';
import { connector } from '../../../connectors/xero/connector.js';
import { toCreditNote } from '../../../connectors/xero/map/credit-note.js';
import { toCustomer } from '../../../connectors/xero/map/customer.js';
import { toInvoice } from '../../../connectors/xero/map/invoice.js';
import { apiBaseUrl, Settings, tokenUrl, XERO_API_URL, XERO_TOKEN_URL } from '../../../connectors/xero/settings.js';

describe('the connector definition (connector.ts)', () => {
  it('given the connector, then it has the three streams, sorted by UpdatedDateUTC, with state that round-trips, and a 55/min, 5,000/day, 5-concurrent budget', () => {
    expect(xero).toBe(connector);
    expect(connector.id).toBe('xero');
    expect(Object.keys(connector.streams).sort()).toEqual(['credit-notes', 'customers', 'invoices']);
    for (const s of Object.values(connector.streams)) {
      expect(s.isSorted).toBe(true);
      expect(s.cursorField).toBe('UpdatedDateUTC');
      expect(s.state.parse(s.initialState('2025-01-01T00:00:00Z'))).toEqual({ cursor: '2025-01-01T00:00:00.000Z' });
      expect(s.initialState()).toEqual({ cursor: null });
    }
    expect([
      connector.streams.invoices.map,
      connector.streams['credit-notes'].map,
      connector.streams.customers.map,
    ]).toEqual([toInvoice, toCreditNote, toCustomer]);
    expect([
      connector.streams.invoices.supportsWindow,
      connector.streams['credit-notes'].supportsWindow,
      connector.streams.customers.supportsWindow,
    ]).toEqual([true, true, false]);
    // Customers read the organisation too (its country and base currency are a contact's defaults), from the same cache.
    expect(connector.streams.customers.lookups).toBe(connector.streams.invoices.lookups);
    expect(connector.rateBudget).toEqual({ perMinute: 55, perDay: 1000, concurrency: 5 });
  });

  it("given the app's tier, then the daily cap per organisation is the tier's: Starter (where new apps start) 1,000, the others 5,000", () => {
    const base = Settings.parse({
      clientId: 'a',
      clientSecret: 'b',
      refreshToken: 'c',
      tenantId: '6f1d2a4e-8c3b-4e5a-9b7c-1a2b3c4d5e01',
    });
    expect(base.tier).toBe('starter');
    const perDay = (tier?: string) => connector.rateBudgetFor!(Settings.parse({ ...base, tier })).perDay;
    expect([perDay(), perDay('core'), perDay('plus'), perDay('advanced'), perDay('enterprise')]).toEqual([
      1000, 5000, 5000, 5000, 5000,
    ]);
    expect(Settings.safeParse({ ...base, tier: 'gold' }).success).toBe(false);
  });

  it('given settings with and without overrides, then the API root and the token endpoint follow them', () => {
    const base = Settings.parse({
      clientId: 'a',
      clientSecret: 'b',
      refreshToken: 'c',
      tenantId: '6f1d2a4e-8c3b-4e5a-9b7c-1a2b3c4d5e01',
    });
    expect([apiBaseUrl(base), tokenUrl(base)]).toEqual([XERO_API_URL, XERO_TOKEN_URL]);
    const sandbox = { ...base, baseUrl: 'http://127.0.0.1:4010/api.xro/2.0' };
    expect([apiBaseUrl(sandbox), tokenUrl(sandbox)]).toEqual([
      'http://127.0.0.1:4010/api.xro/2.0',
      'http://127.0.0.1:4010/connect/token',
    ]);
    expect(tokenUrl({ ...sandbox, tokenUrl: 'http://127.0.0.1:4011/connect/token' })).toBe(
      'http://127.0.0.1:4011/connect/token',
    );
    expect(Settings.safeParse({ ...base, tenantId: 'first' }).success).toBe(false);
  });
});
