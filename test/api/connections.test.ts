import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QBO_SANDBOX_DEFAULTS } from '../../sandbox/quickbooks/quickbooks-emulator.js';
import { stateKeys } from '../../src/pipeline/keys.js';
import { calendarMonth } from '../../src/pipeline/quotas.js';
import { ACME, type ApiUnderTest, GLOBEX, startApi } from './api-harness.js';

const APP = 'shared-app';

/** A QuickBooks connection of app APP for a billing company; never pulled here (its address answers nothing). */
const qbo = (id: string, realmId: string, billing?: Record<string, unknown>) => ({
  id,
  system: 'quickbooks',
  originSource: 'EXTERNAL_SYSTEM_C',
  entities: ['invoices'],
  schedule: { everySeconds: 86_400 },
  ...(billing ? { billing } : {}),
  settings: {
    ...QBO_SANDBOX_DEFAULTS,
    realmId,
    baseUrl: 'http://127.0.0.1:9',
    tokenUrl: 'http://127.0.0.1:9/token',
    appName: APP,
    appMonthlyReadBudget: 500_000,
  },
});

interface Listed {
  id: string;
  quota: { projection: { month: { used: number; connections: number } | null; message: string } | null };
}

/**
 * GET /connections for tokens limited to a company, when a QuickBooks app (whose month Intuit counts
 * over every company connected to it) is shared by acme's and globex's connections.
 */
describe('the API: connections', () => {
  let api: ApiUnderTest;

  beforeAll(async () => {
    api = await startApi('api-connections', {
      harness: {
        extraConnections: [
          qbo('qbo-acme', '9341453000000001'),
          qbo('qbo-globex', '9341453000000002', {
            apiKey: '${GLOBEX_KEY}',
            attachmentKey: '${GLOBEX_ATTACH}',
            baseCurrency: 'INR',
            company: GLOBEX.company,
          }),
        ],
      },
    });
    // The app's calls this month, every company's together.
    const key = stateKeys(api.config.redis.prefix).appMonthCalls(APP, calendarMonth(Date.now()).month);
    await api.tc.rt.redis.set(key, '777');
  });
  afterAll(() => api?.close());

  it("given an app shared by acme's and globex's connections, when globex's token lists its connections, then the app's month (every company's calls) is not shown; an unlimited token sees it", async () => {
    const limited = await api.get<{ connections: Listed[] }>('/connections', api.tokens.globex.token);
    expect(limited.status).toBe(200);
    const mine = limited.body.connections.find((c) => c.id === 'qbo-globex')!;
    expect(mine.quota.projection).not.toBeNull();
    expect(mine.quota.projection!.month).toBeNull();
    expect(mine.quota.projection!.message).not.toContain(APP);
    expect(limited.body.connections.map((c) => c.id)).toEqual([GLOBEX.connection, 'qbo-globex']);
    const one = await api.get<Listed>('/connections/qbo-globex', api.tokens.globex.token);
    expect(one.body.quota.projection!.month).toBeNull();

    const all = await api.get<{ connections: Listed[] }>('/connections', api.tokens.viewer.token);
    const seen = all.body.connections.find((c) => c.id === 'qbo-globex')!;
    expect(seen.quota.projection!.month).toMatchObject({ connections: 2 });
    // The worker's own tries at these connections count too.
    expect(seen.quota.projection!.month!.used).toBeGreaterThanOrEqual(777);
    expect(all.body.connections.map((c) => c.id)).toContain(ACME.connection);
  });
});
