import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.js';

/**
 * The harness itself, with one connection of every vendor in one billing company: each connection's
 * history reaches billing through the real pipeline, the config holds references where secrets go, and
 * close() leaves nothing behind.
 */
describe('the test harness with connections of every vendor', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      name: 'harness-mixed',
      invoices: 12,
      connections: [{ system: 'zoho-books' }, { system: 'quickbooks' }, { system: 'xero' }],
    });
    h.startWorkers(['pull', 'upsert', 'backfill']);
  }, 60_000);
  afterAll(() => h?.close());

  it('given a backfill of each connection, then billing holds each source, record for record, under its own origin', async () => {
    for (const c of h.connections) await h.waitForBackfill((await h.backfill({ connectionId: c.id })).runId);
    for (const c of h.connections) {
      const connection = { rt: h.rt, billing: h.billing, connectionId: c.id, company: c.company, origin: c.origin };
      const result = await h.compareWithSource({}, connection);
      expect(result.problems, c.id).toEqual([]);
      expect(result.expected, `${c.id}: invoices mapped`).toBeGreaterThan(0);
      expect(result.inBilling, c.id).toBe(result.expected);
    }
    expect(new Set(h.invoicesOf('rel').map((i) => i.originSource))).toEqual(
      new Set(['EXTERNAL_SYSTEM_A', 'EXTERNAL_SYSTEM_B', 'EXTERNAL_SYSTEM_C']),
    );
  }, 120_000);

  it('given the config, then every vendor secret is a ${VAR} reference the environment fills, and each emulator is typed by its vendor', () => {
    const raw = JSON.stringify(h.rawConfig);
    for (const [name, value] of Object.entries(h.secretEnv)) {
      expect(raw, name).not.toContain(value);
      expect(raw, name).toContain(`\${${name}}`);
    }
    expect(Object.keys(h.secretEnv).sort()).toEqual([
      'REL_BILLING_API_KEY',
      'REL_BILLING_ATTACHMENT_KEY',
      'REL_QUICKBOOKS_CLIENT_SECRET',
      'REL_QUICKBOOKS_REFRESH_TOKEN',
      'REL_XERO_CLIENT_SECRET',
      'REL_XERO_REFRESH_TOKEN',
      'REL_ZOHO_CLIENT_SECRET',
      'REL_ZOHO_REFRESH_TOKEN',
    ]);
    expect(h.emulatorOf('qbo-1', 'quickbooks').realmId).toBe(h.config.connections[1]!.settings.realmId);
    expect(h.emulatorOf('xero-1', 'xero').tenantIds[0]).toBe(h.config.connections[2]!.settings.tenantId);
    expect(() => h.emulatorOf('xero-1', 'quickbooks')).toThrow('connection xero-1 is xero, not quickbooks');
    expect(() => h.zohoOf('qbo-1')).toThrow('connection qbo-1 is quickbooks, not zoho-books');
  });
});

describe("the test harness's close()", () => {
  it('given a harness that ran workers, when it is closed, then no key is left under its prefix and billing and every emulator stop answering', async () => {
    const h = await startHarness({
      name: 'harness-close',
      invoices: 5,
      connections: [{ system: 'quickbooks' }, { system: 'xero' }],
    });
    h.startWorkers(['pull', 'upsert', 'backfill']);
    await h.waitForBackfill((await h.backfill()).runId);
    const urls = [h.billing.url, h.emulatorOf('qbo-1', 'quickbooks').url, h.emulatorOf('xero-1', 'xero').url];
    const { connect } = await import('./redis.js');
    const redis = connect();
    try {
      expect((await redis.keys(`${h.prefix}:*`)).length).toBeGreaterThan(0);
      await h.close();
      expect(await redis.keys(`${h.prefix}:*`)).toEqual([]);
    } finally {
      redis.disconnect();
    }
    for (const url of urls) await expect(fetch(`${url}/__admin/journal`), url).rejects.toThrow();
  }, 120_000);
});
