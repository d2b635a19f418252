import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { runBackfill } from '../../cli/commands/backfill.js';
import { validateSettings } from '../../connectors/registry.js';
import { createRuntime } from '../../app/create-runtime.js';
import type { Runtime } from '../../jobs/runtime.js';
import { startWorkers, type WorkerService } from '../../app/worker-service.js';
import { addDays, utcDate } from '../../src/billing/dates.js';
import type { CustomerDetails } from '../../src/billing/schemas/index.js';
import { countryCodeOf, findIndianState } from '../../src/mapping/index.js';
import { parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { startBillingEmulator, type BillingEmulator } from '../../sandbox/billing/billing-emulator.js';
import { QBO_SANDBOX_DEFAULTS, startQuickBooksEmulator, US_COMPANY } from '../../sandbox/quickbooks/index.js';
import { NEW_ZEALAND_TENANT, startXeroEmulator, XERO_SANDBOX_DEFAULTS } from '../../sandbox/xero/index.js';
import { startZohoEmulator, ZOHO_SANDBOX_DEFAULTS } from '../../sandbox/zoho-books/index.js';
import { connect, dropPrefix, TEST_REDIS_URL } from '../support/redis.js';

/**
 * A customer's country and currency come from its record, else from its ERP organisation — never from
 * billing's defaults (countryCode IN, currency INR) by omission. Each case syncs the customers of one
 * sandbox organisation through the whole pipeline (backfill → pull → upsert → billing emulator).
 */
describe('customers take their organisation’s country and currency where their record is silent', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
    cleanups.length = 0;
  });

  /** Billing, Redis and workers around one connection; returns billing's customers by ERP id after a customers backfill. */
  async function syncCustomers(connection: Record<string, unknown>): Promise<Map<string, CustomerDetails>> {
    const billing: BillingEmulator = await startBillingEmulator({ port: 0, keys: [{ key: 'k', companyId: 'c' }] });
    cleanups.push(() => billing.close());
    const prefix = `test-org-defaults-${randomBytes(3).toString('hex')}`;
    const config = parseConfig(
      {
        billing: { url: billing.url, apiKey: 'k' },
        redis: { url: TEST_REDIS_URL, prefix },
        sync: { backoffMs: 50 },
        connections: [connection],
      },
      {},
      validateSettings,
    );
    const rt: Runtime = await createRuntime(config, TEST_REDIS_URL, createLogger({ level: 'silent', format: 'json' }));
    const workers: WorkerService = startWorkers(rt, ['pull', 'upsert', 'backfill']);
    cleanups.push(async () => {
      await workers.stop(5_000);
      await rt.close();
      const r = connect();
      await dropPrefix(r, prefix);
      await r.quit();
    });
    const id = String(connection.id);
    await runBackfill(
      rt,
      { connectionId: id, entities: ['customers'], from: '2000-01-01', to: addDays(utcDate(Date.now()), 2) },
      { quiet: true },
    );
    expect(await rt.quarantine.list(id)).toEqual([]);
    return new Map(billing.store.company('c').customers.map((c) => [c.details.erpId!, c.details]));
  }

  const connection = (id: string, system: string, originSource: string, settings: Record<string, unknown>) => ({
    id,
    system,
    originSource,
    schedule: { everySeconds: 3600 },
    lookbackSeconds: 120,
    settleDelaySeconds: 0,
    rateBudget: { perMinute: 100_000, concurrency: 8 },
    settings,
  });

  it('given a US QuickBooks company (home currency USD, no multicurrency), when its customers sync, then a customer without a country is US in USD and one with an Indian address stays IN', async () => {
    const emu = await startQuickBooksEmulator({
      port: 0,
      records: 5,
      customers: 10,
      creditMemos: 0,
      homeCurrency: 'USD',
      company: US_COMPANY,
    });
    cleanups.push(() => emu.close());
    const plain = emu.store.createCustomer({
      displayName: 'Rainier Outfitters',
      billAddr: { Line1: '1 Main St', City: 'Tacoma', CountrySubDivisionCode: 'WA' },
    });
    const abroad = emu.store.createCustomer({
      displayName: 'Tasman Freight',
      billAddr: { City: 'Sydney', Country: 'Australia' },
    });
    const indian = [...emu.store.customers.values()].find((c) => c.billAddr.Country === 'India')!;

    const customers = await syncCustomers(
      connection('qbo-us', 'quickbooks', 'EXTERNAL_SYSTEM_B', {
        ...QBO_SANDBOX_DEFAULTS,
        realmId: emu.realmId,
        baseUrl: emu.url,
        tokenUrl: `${emu.url}/oauth2/v1/tokens/bearer`,
      }),
    );
    expect(customers.size).toBe(emu.store.customers.size);
    expect(customers.get(plain.id)).toMatchObject({ countryCode: 'US', currency: 'USD', stateCode: 'WA' });
    expect(customers.get(abroad.id)).toMatchObject({ countryCode: 'AU', country: 'Australia', currency: 'USD' });
    expect(customers.get(indian.id)).toMatchObject({ countryCode: 'IN', country: 'India' });
    // No customer of a US company is left to billing's India/rupee defaults without its record saying so.
    for (const c of customers.values()) if (c.countryCode === 'IN') expect(c.country).toBe('India');
    expect([...customers.values()].every((c) => c.currency === 'USD')).toBe(true);
  }, 60_000);

  it('given a Xero organisation in New Zealand (NZD), when its contacts sync, then a contact with no address or currency is NZ in NZD and a foreign one keeps its own', async () => {
    const emu = await startXeroEmulator({ port: 0, records: 5, tenants: [NEW_ZEALAND_TENANT] });
    cleanups.push(() => emu.close());
    const tenantId = NEW_ZEALAND_TENANT.tenantId;
    const bare = emu.store.createContact(tenantId, { name: 'Pohutukawa Cafe', noAddress: true, taxNumber: null });
    const foreign = emu.store.createContact(tenantId, {
      name: 'Lone Star Supply',
      foreign: true,
      defaultCurrency: 'USD',
    });

    const customers = await syncCustomers(
      connection('xero-nz', 'xero', 'EXTERNAL_SYSTEM_C', {
        clientId: XERO_SANDBOX_DEFAULTS.clientId,
        clientSecret: XERO_SANDBOX_DEFAULTS.clientSecret,
        refreshToken: XERO_SANDBOX_DEFAULTS.refreshToken,
        tenantId,
        baseUrl: emu.apiBase,
        tokenUrl: emu.tokenUrl,
      }),
    );
    const bareOut = customers.get(bare.ContactID)!;
    expect(bareOut).toMatchObject({ countryCode: 'NZ', currency: 'NZD' });
    expect(bareOut.country).toBeUndefined();
    const foreignOut = customers.get(foreign.ContactID)!;
    expect(foreignOut.currency).toBe('USD');
    // Its own address's country (the generator's foreign places include New Zealand itself).
    const street = foreign.Addresses!.find((a) => a.AddressType === 'STREET')!;
    expect(foreignOut.country).toBe(street.Country);
    expect(foreignOut.countryCode).toBe(countryCodeOf(street.Country));
    for (const c of customers.values()) expect(c.currency).not.toBe('INR');
  }, 60_000);

  it('given an Indian Zoho Books organisation, when its contacts sync, then every customer keeps the country, state and currency its own record gives', async () => {
    const emu = await startZohoEmulator({
      port: 0,
      seed: 5,
      records: 10,
      customers: 20,
      creditNotes: 0,
      ratePerMinute: 0,
      dailyLimit: 0,
    });
    cleanups.push(() => emu.close());
    const customers = await syncCustomers(
      connection('zoho-in', 'zoho-books', 'EXTERNAL_SYSTEM_A', {
        organizationId: emu.organizationId,
        clientId: ZOHO_SANDBOX_DEFAULTS.clientId,
        clientSecret: ZOHO_SANDBOX_DEFAULTS.clientSecret,
        refreshToken: ZOHO_SANDBOX_DEFAULTS.refreshToken,
        baseUrl: emu.apiBase,
        accountsUrl: emu.url,
        dailyCallLimit: 0,
      }),
    );
    const contacts = emu.store.contacts().filter((c) => c.contact_type === 'customer');
    expect(customers.size).toBe(contacts.length);
    for (const contact of contacts) {
      const out = customers.get(contact.contact_id)!;
      expect(out.currency).toBe(contact.currency_code);
      expect(out.country).toBe(contact.billing_address.country);
      const india = contact.billing_address.country === 'India';
      expect(out.countryCode).toBe(india ? 'IN' : countryCodeOf(contact.billing_address.country));
      // The state is the contact's (its GSTIN's, else its address's), never the organisation's.
      const own = contact.gst_no
        ? contact.gst_no.slice(0, 2)
        : india
          ? findIndianState(contact.billing_address.state_code)?.gstCode
          : undefined;
      expect(out.stateCode).toBe(own);
    }
  }, 60_000);
});
