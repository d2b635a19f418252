import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startQuickBooksEmulator,
  type RunningQuickBooksEmulator,
} from '../../../sandbox/quickbooks/quickbooks-emulator.js';
import { admin, validHmac, WebhookReceiver } from './webhook-receiver.js';

const TOKEN = 'intuit-verifier-token-for-the-emulator-tests';
let emu: RunningQuickBooksEmulator;
let rx: WebhookReceiver;
beforeAll(async () => {
  emu = await startQuickBooksEmulator({ records: 20, customers: 8, creditMemos: 4 });
  rx = await new WebhookReceiver().start();
});
afterAll(async () => {
  await emu.close();
  await rx.close();
});
beforeEach(async () => {
  await admin(emu.url, '/__admin/reset', {});
  await admin(emu.url, '/__admin/webhooks', { url: null, format: 'cloudevents', retryDelaysMs: [5, 5, 5] });
  rx.reset();
});

type CloudEvent = Record<string, string>;

describe('QuickBooks sandbox webhooks', () => {
  it('given a verifier token, when invoices change, then one CloudEvents array per realm arrives signed with intuit-signature', async () => {
    await admin(emu.url, '/__admin/webhooks', { url: rx.url, secret: TOKEN });
    const made = await admin(emu.url, '/__admin/changes', { entity: 'invoices', op: 'edit', count: 2 });
    await rx.until(1);
    const voided = await admin(emu.url, '/__admin/changes', { entity: 'invoices', op: 'void', count: 1 });
    await rx.until(2);
    for (const d of rx.received) {
      expect(d.path).toBe('/webhooks/quickbooks');
      expect(validHmac(d.raw, d.headers['intuit-signature'], TOKEN)).toBe(true);
    }
    expect(rx.received.map((d) => (d.body as CloudEvent[]).length)).toEqual([2, 1]);
    const events = rx.received.flatMap((d) => d.body as CloudEvent[]);
    expect(events.map((e) => [e.type, e.intuitentityid])).toEqual([
      ['qbo.invoice.updated.v1', made.body.changes[0].id],
      ['qbo.invoice.updated.v1', made.body.changes[1].id],
      ['qbo.invoice.voided.v1', voided.body.changes[0].id],
    ]);
    expect(events[0]).toMatchObject({
      specversion: '1.0',
      intuitaccountid: emu.realmId,
      datacontenttype: 'application/json',
    });
    expect(events[0]!.source).toMatch(/^intuit\./);
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
  });

  it('given the older format asked for, when a credit memo is deleted and a customer created, then eventNotifications carry them', async () => {
    await admin(emu.url, '/__admin/webhooks', { url: rx.url, secret: TOKEN, format: 'legacy' });
    const cm = await admin(emu.url, '/__admin/changes', { entity: 'credit-notes', op: 'create', count: 1 });
    await rx.until(1);
    await admin(emu.url, '/__admin/changes', { entity: 'credit-notes', op: 'delete', ids: [cm.body.changes[0].id] });
    await rx.until(2);
    const cu = await admin(emu.url, '/__admin/changes', { entity: 'customers', op: 'create', count: 1 });
    await rx.until(3);
    type Legacy = { eventNotifications: Array<{ realmId: string; dataChangeEvent: { entities: unknown[] } }> };
    for (const d of rx.received) {
      expect(validHmac(d.raw, d.headers['intuit-signature'], TOKEN)).toBe(true);
      expect((d.body as Legacy).eventNotifications.map((n) => n.realmId)).toEqual([emu.realmId]);
    }
    const entities = rx.received.flatMap((d) => (d.body as Legacy).eventNotifications[0]!.dataChangeEvent.entities);
    expect(entities).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'CreditMemo', id: cm.body.changes[0].id, operation: 'Create' }),
        expect.objectContaining({ name: 'CreditMemo', id: cm.body.changes[0].id, operation: 'Delete' }),
        expect.objectContaining({ name: 'Customer', id: cu.body.changes[0].id, operation: 'Create' }),
      ]),
    );
  });

  it('given an unacknowledged delivery, when later changes happen, then they wait behind it until the retry succeeds', async () => {
    await admin(emu.url, '/__admin/webhooks', { url: rx.url, secret: TOKEN, retryDelaysMs: [30, 30, 30] });
    rx.answer = (_r, i) => (i < 2 ? 500 : 200);
    const first = await admin(emu.url, '/__admin/changes', { entity: 'invoices', op: 'edit', count: 1 });
    await rx.until(1);
    const second = await admin(emu.url, '/__admin/changes', { entity: 'customers', op: 'edit', count: 1 });
    await rx.until(4);
    const ids = rx.received.map((r) => (r.body as CloudEvent[]).map((e) => e.intuitentityid));
    expect(rx.received.map((r) => r.status)).toEqual([500, 500, 200, 200]);
    expect(ids).toEqual([
      [first.body.changes[0].id],
      [first.body.changes[0].id],
      [first.body.changes[0].id],
      [second.body.changes[0].id],
    ]);
  });

  it('given an unknown format, when it is set, then the admin route answers 400 naming it', async () => {
    const res = await admin(emu.url, '/__admin/webhooks', { format: 'xml' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/format/);
  });
});
