import { describe, expect, it } from 'vitest';
import quickbooks from '../../../connectors/quickbooks/index.js';
import { connector } from '../../../connectors/quickbooks/connector.js';
import { Settings } from '../../../connectors/quickbooks/settings.js';

describe('the connector definition (connector.ts)', () => {
  it('given the connector, then it has the three streams, sorted by LastUpdatedTime, with state that round-trips, listIds on documents only, and a 450/min, 10-concurrent budget', () => {
    expect(quickbooks).toBe(connector);
    expect(connector.id).toBe('quickbooks');
    expect(Object.keys(connector.streams).sort()).toEqual(['credit-notes', 'customers', 'invoices']);
    for (const s of Object.values(connector.streams)) {
      expect(s.isSorted).toBe(true);
      expect(s.cursorField).toBe('MetaData.LastUpdatedTime');
      expect(s.state.parse(s.initialState('2025-01-01T00:00:00.000Z'))).toEqual({ cursor: '2025-01-01T00:00:00.000Z' });
      expect(s.initialState()).toEqual({ cursor: null });
      expect(typeof s.lookups).toBe('function');
    }
    expect(
      [
        connector.streams.invoices.listIds,
        connector.streams['credit-notes'].listIds,
        connector.streams.customers.listIds,
      ].map((f) => typeof f),
    ).toEqual(['function', 'function', 'undefined']);
    expect([
      connector.streams.invoices.supportsWindow,
      connector.streams['credit-notes'].supportsWindow,
      connector.streams.customers.supportsWindow,
    ]).toEqual([true, true, false]);
    expect(connector.rateBudget).toEqual({ perMinute: 450, concurrency: 10 });
  });

  it('given the minimal settings, then the defaults are production Intuit, minorversion 75, 1,000 rows a page and a 60 s throttle wait', () => {
    const s = Settings.parse({ realmId: '9341453012345678', clientId: 'c', clientSecret: 's', refreshToken: 'r' });
    expect(s).toMatchObject({
      baseUrl: 'https://quickbooks.api.intuit.com',
      tokenUrl: 'https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer',
      minorVersion: '75',
      pageSize: 1000,
      throttleWaitMs: 60_000,
      appMonthlyReadBudget: 500_000,
    });
    // The app's key in metrics is a short hash of the client id (never the id), or the configured name.
    const month = connector.quotaProfile!.appMonthlyBudget!(s);
    expect(month).toEqual({ app: expect.stringMatching(/^qbo-[0-9a-f]{8}$/), budget: 500_000 });
    expect(connector.quotaProfile!.appMonthlyBudget!({ ...s, appName: 'billing-sync' })?.app).toBe('billing-sync');
    expect(connector.quotaProfile!.appMonthlyBudget!({ ...s, appMonthlyReadBudget: 0 })).toBeUndefined();
    expect(Settings.safeParse({ realmId: '93/41', clientId: 'c', clientSecret: 's', refreshToken: 'r' }).success).toBe(
      false,
    );
    expect(
      Settings.safeParse({ realmId: '1', clientId: 'c', clientSecret: 's', refreshToken: 'r', pageSize: 1001 }).success,
    ).toBe(false);
  });
});
