import { afterEach, describe, expect, it } from 'vitest';
import { runBackfill } from '../../cli/commands/backfill.js';
import { addDays, utcDate } from '../../src/billing/dates.js';
import type { CustomerDetails } from '../../src/billing/schemas/index.js';
import { countryCodeOf, findIndianState } from '../../src/mapping/index.js';
import { US_COMPANY } from '../../sandbox/quickbooks/index.js';
import { NEW_ZEALAND_TENANT } from '../../sandbox/xero/index.js';
import { COMPANY, type Harness, type HarnessConnection, startHarness } from '../support/harness.js';

/**
 * A customer's country and currency come from its record, else from its ERP organisation — never from
 * billing's defaults (countryCode IN, currency INR) by omission. Each case syncs the customers of one
 * sandbox organisation through the whole pipeline (backfill → pull → upsert → billing emulator).
 */
describe('customers take their organisation’s country and currency where their record is silent', () => {
  let h: Harness | undefined;
  afterEach(() => h?.close());

  /** Billing, Redis and workers around one connection of customers, its emulator started with `emulator`. */
  async function harnessOf(connection: HarnessConnection): Promise<Harness> {
    h = await startHarness({ name: 'org-defaults', connections: [{ ...connection, entities: ['customers'] }] });
    h.startWorkers(['pull', 'upsert', 'backfill']);
    return h;
  }

  /** Billing's customers by ERP id after a customers backfill. */
  async function syncCustomers(h: Harness): Promise<Map<string, CustomerDetails>> {
    const id = h.connections[0]!.id;
    await runBackfill(
      h.rt,
      { connectionId: id, entities: ['customers'], from: '2000-01-01', to: addDays(utcDate(Date.now()), 2) },
      { quiet: true },
    );
    expect(await h.rt.quarantine.list(id)).toEqual([]);
    return new Map(h.billing.store.company(COMPANY).customers.map((c) => [c.details.erpId!, c.details]));
  }

  it('given a US QuickBooks company (home currency USD, no multicurrency), when its customers sync, then a customer without a country is US in USD and one with an Indian address stays IN', async () => {
    const h = await harnessOf({
      system: 'quickbooks',
      id: 'qbo-us',
      invoices: 5,
      customers: 10,
      emulator: { homeCurrency: 'USD', company: US_COMPANY },
    });
    const emu = h.emulatorOf('qbo-us', 'quickbooks');
    const plain = emu.store.createCustomer({
      displayName: 'Rainier Outfitters',
      billAddr: { Line1: '1 Main St', City: 'Tacoma', CountrySubDivisionCode: 'WA' },
    });
    const abroad = emu.store.createCustomer({
      displayName: 'Tasman Freight',
      billAddr: { City: 'Sydney', Country: 'Australia' },
    });
    const indian = [...emu.store.customers.values()].find((c) => c.billAddr.Country === 'India')!;

    const customers = await syncCustomers(h);
    expect(customers.size).toBe(emu.store.customers.size);
    expect(customers.get(plain.id)).toMatchObject({ countryCode: 'US', currency: 'USD', stateCode: 'WA' });
    expect(customers.get(abroad.id)).toMatchObject({ countryCode: 'AU', country: 'Australia', currency: 'USD' });
    expect(customers.get(indian.id)).toMatchObject({ countryCode: 'IN', country: 'India' });
    // No customer of a US company is left to billing's India/rupee defaults without its record saying so.
    for (const c of customers.values()) if (c.countryCode === 'IN') expect(c.country).toBe('India');
    expect([...customers.values()].every((c) => c.currency === 'USD')).toBe(true);
  }, 60_000);

  it('given a Xero organisation in New Zealand (NZD), when its contacts sync, then a contact with no address or currency is NZ in NZD and a foreign one keeps its own', async () => {
    const h = await harnessOf({
      system: 'xero',
      id: 'xero-nz',
      invoices: 5,
      customers: 24,
      emulator: { tenants: [NEW_ZEALAND_TENANT] },
    });
    const emu = h.emulatorOf('xero-nz', 'xero');
    const tenantId = NEW_ZEALAND_TENANT.tenantId;
    const bare = emu.store.createContact(tenantId, { name: 'Pohutukawa Cafe', noAddress: true, taxNumber: null });
    const foreign = emu.store.createContact(tenantId, {
      name: 'Lone Star Supply',
      foreign: true,
      defaultCurrency: 'USD',
    });

    const customers = await syncCustomers(h);
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
    const h = await harnessOf({ system: 'zoho-books', id: 'zoho-in', seed: 5, invoices: 10, customers: 20 });
    const emu = h.emulatorOf('zoho-in', 'zoho-books');
    const customers = await syncCustomers(h);
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
