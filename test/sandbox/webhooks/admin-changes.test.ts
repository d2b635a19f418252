import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQuickBooksEmulator } from '../../../sandbox/quickbooks/quickbooks-emulator.js';
import { startXeroEmulator } from '../../../sandbox/xero/xero-emulator.js';
import { startZohoEmulator } from '../../../sandbox/zoho-books/zoho-emulator.js';
import { admin } from './webhook-receiver.js';
import { computeAmounts } from '../../../sandbox/quickbooks/compute-amounts.js';

/** An emulator and the invoice total billing would read from it (minor units or the vendor's decimal). */
type Emu = { url: string; close(): Promise<void>; total(id: string): string };
const ENTITIES = ['invoices', 'credit-notes', 'customers'] as const;
const OPS = ['create', 'edit', 'void', 'delete'] as const;

/** What each vendor cannot do, answered 400 with a reason (every other entity and op works). */
const REFUSED: Record<string, string[]> = {
  xero: ['customers void'],
  quickbooks: ['credit-notes void', 'customers void'],
  'zoho-books': ['customers create', 'customers void'],
};

const sandboxes: Array<[string, () => Promise<Emu>]> = [
  [
    'xero',
    async () => {
      const e = await startXeroEmulator({ records: 40, contacts: 16, creditNotes: 12 });
      return { url: e.url, close: e.close, total: (id) => String(e.store.invoice(e.tenantIds[0]!, id).Total) };
    },
  ],
  [
    'quickbooks',
    async () => {
      const e = await startQuickBooksEmulator({ records: 40, customers: 12, creditMemos: 8 });
      return { url: e.url, close: e.close, total: (id) => String(computeAmounts(e.store.doc('Invoice', id)).total) };
    },
  ],
  [
    'zoho-books',
    async () => {
      const e = await startZohoEmulator({ records: 120 });
      return { url: e.url, close: e.close, total: (id) => String(e.store.invoice(id)!.amounts.totalMinor) };
    },
  ],
];

describe.each(sandboxes)('POST /__admin/changes on the %s sandbox', (vendor, start) => {
  let emu: Emu;
  beforeAll(async () => {
    emu = await start();
  });
  afterAll(async () => emu.close());

  for (const entity of ENTITIES)
    for (const op of OPS) {
      const refused = REFUSED[vendor]!.includes(`${entity} ${op}`);
      it(`given ${entity} and ${op} with a count, then it ${refused ? 'is refused with a reason' : 'answers each change made'}`, async () => {
        const res = await admin(emu.url, '/__admin/changes', { entity, op, count: 2 });
        if (refused) {
          expect(res.status).toBe(400);
          expect(res.body.error).toMatch(/cannot|creates no/);
          return;
        }
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.changes).toHaveLength(2);
        for (const c of res.body.changes) {
          expect(c).toMatchObject({ entity, op });
          expect(typeof c.id).toBe('string');
          expect(new Date(c.modifiedAt).toISOString()).toBe(c.modifiedAt);
        }
      });
    }

  it('given ids, when invoices are edited, then exactly those change, and their totals with them', async () => {
    const made = await admin(emu.url, '/__admin/changes', { entity: 'invoices', op: 'create', count: 2 });
    const ids = made.body.changes.map((c: { id: string }) => c.id);
    const before = ids.map((id: string) => emu.total(id));
    const res = await admin(emu.url, '/__admin/changes', { entity: 'invoices', op: 'edit', ids });
    expect(res.body.changes.map((c: { id: string }) => c.id)).toEqual(ids);
    // An edit changes what billing receives: the invoice's total.
    ids.forEach((id: string, i: number) => expect(emu.total(id)).not.toBe(before[i]));
  });

  it('given an unknown id, a count with ids, or an unknown entity, then the answer names the problem', async () => {
    const unknown = await admin(emu.url, '/__admin/changes', { entity: 'invoices', op: 'edit', ids: ['no-such-id'] });
    expect(unknown.status).toBe(404);
    const both = await admin(emu.url, '/__admin/changes', { entity: 'invoices', op: 'edit', ids: ['1'], count: 1 });
    expect(both.status).toBe(400);
    expect(both.body.error).toMatch(/count or ids/);
    const entity = await admin(emu.url, '/__admin/changes', { entity: 'bills', op: 'edit', count: 1 });
    expect(entity.status).toBe(400);
    expect(entity.body.error).toMatch(/^entity/);
  });
});
