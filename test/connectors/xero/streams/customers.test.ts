import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { customersStream } from '../../../../connectors/xero/streams/customers.js';
import { parseMsDate } from '../../../../sandbox/xero/index.js';
import { latest, mapCtx, readAll, startXeroClients, type XeroClients } from '../support.js';

let h: XeroClients;
beforeAll(async () => {
  h = await startXeroClients({ contacts: 30 });
});
afterAll(async () => h.close());
beforeEach(async () => {
  await h.reset();
});

const iso = (u: string) => new Date(parseMsDate(u)!).toISOString();
const sourceNow = (since = '') =>
  new Map(
    h.emu.store
      .contacts(h.india)
      .filter((c) => iso(c.UpdatedDateUTC) >= since)
      .map((c) => [c.ContactID, iso(c.UpdatedDateUTC)]),
  );
const ctx = () => h.readCtx(h.client(h.india, { settings: { pageSize: 4 } }), h.settings(h.india, { pageSize: 4 }));

describe('Xero customers stream', () => {
  it('given a full read, then every contact comes back, archived ones included (includeArchived=true), none as a delete', async () => {
    const { records } = await readAll(customersStream, ctx(), customersStream.initialState());
    expect(latest(records)).toEqual(sourceNow());
    expect(records.some((r) => r.status === 'ARCHIVED')).toBe(true);
    expect(records.every((r) => r.deleted === undefined)).toBe(true);
    const mapped = records.map((r) => customersStream.map(r, mapCtx('xero-in', {})));
    expect(mapped.filter((m) => !m.ok).every((m) => !m.ok && m.reason === 'UNSUPPORTED')).toBe(true);
    expect(mapped.filter((m) => m.ok).length).toBeGreaterThan(20);
    expect(customersStream.supportsWindow).toBe(false);
  });

  it('given contacts that are only suppliers, then each comes back marked not for billing (skipped and counted by the pull, never quarantined), and every other contact maps', async () => {
    const { records } = await readAll(customersStream, ctx(), customersStream.initialState());
    const suppliers = new Set(
      h.emu.store
        .contacts(h.india)
        .filter((c) => c.IsSupplier === true && c.IsCustomer !== true)
        .map((c) => c.ContactID),
    );
    expect(suppliers.size).toBeGreaterThan(0);
    for (const r of records) expect(Boolean(r.notForBilling), r.id).toBe(suppliers.has(r.id));
    const others = records.filter((r) => !r.notForBilling).map((r) => customersStream.map(r, mapCtx('xero-in', {})));
    expect(others.every((m) => m.ok)).toBe(true);
  });

  it('given a renamed, an archived and a new contact in the same instant, when reading from the last cursor, then all three come back', async () => {
    const first = await readAll(customersStream, ctx(), customersStream.initialState());
    const cursor = first.states.at(-1)!.cursor!;
    const [a, b] = h.emu.store.contacts(h.india).filter((c) => c.ContactStatus === 'ACTIVE' && c.IsCustomer);
    h.emu.clock.set({ now: '2026-03-02T00:00:00.000Z', frozen: true });
    const created = h.emu.store.batch(() => {
      h.emu.store.editContact(h.india, a!.ContactID, { name: 'Renamed Pvt Ltd' });
      h.emu.store.archiveContact(h.india, b!.ContactID);
      return h.emu.store.createContact(h.india, { taxNumber: '29AABCK1234F1Z5' });
    });
    const second = await readAll(customersStream, ctx(), { cursor });
    const got = latest(second.records);
    for (const [id, v] of sourceNow(cursor)) expect(got.get(id)).toBe(v);
    expect(got.has(created.ContactID)).toBe(true);
    expect(second.records.find((r) => r.id === b!.ContactID)?.status).toBe('ARCHIVED');
    expect(second.records.find((r) => r.id === a!.ContactID)?.raw.Name).toBe('Renamed Pvt Ltd');
  });
});
