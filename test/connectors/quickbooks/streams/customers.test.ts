import { afterEach, describe, expect, it } from 'vitest';
import { customersStream } from '../../../../connectors/quickbooks/streams/customers.js';
import { type QuickBooksClients, startQuickBooksClients, latestById, readAll } from '../harness.js';

describe('QuickBooks customers stream against the sandbox', () => {
  let h: QuickBooksClients | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('given active and inactive customers, then a full read returns both (Active IN (true, false)) and inactive is a status', async () => {
    h = await startQuickBooksClients({ records: 20, customers: 40 });
    const { records, pages } = await readAll(customersStream, h.ctx(), customersStream.initialState());
    const expected = new Map(
      [...h.emu.store.customers.values()].map((c) => [c.id, new Date(c.lastUpdated).toISOString()]),
    );
    expect(latestById(records)).toEqual(expected);
    const inactive = records.filter((r) => r.status === 'inactive');
    expect(inactive.length).toBe([...h.emu.store.customers.values()].filter((c) => !c.active).length);
    expect(inactive.length).toBeGreaterThan(0);
    expect(pages.every((p) => p.state.cursor !== null)).toBe(true);

    const lookups = await customersStream.lookups!(h.ctx());
    const mapped = customersStream.map(inactive[0]!, {
      connectionId: h.connectionId,
      originSource: 'EXTERNAL_SYSTEM_B',
      baseCurrency: 'INR',
      lookups,
    });
    expect(mapped.ok && mapped.value.kind === 'customer' && mapped.value.customer.customerStatus).toBe('INACTIVE');
  });

  it('given a customer made inactive (QBO "delete") after a read, then the next read returns it as inactive, never as deleted', async () => {
    h = await startQuickBooksClients({ records: 10, customers: 12 });
    await readAll(customersStream, h.ctx(), customersStream.initialState());
    const cursor = new Date(h.emu.clock.now()).toISOString();
    h.emu.clock.set({ advanceSeconds: 30 });
    const target = [...h.emu.store.customers.values()].find((c) => c.active)!;
    h.emu.store.editCustomer(target.id, { active: false });
    const { records } = await readAll(customersStream, h.ctx(), { cursor });
    expect(records.map((r) => [r.id, r.status, r.deleted])).toEqual([[target.id, 'inactive', undefined]]);
  });
});
