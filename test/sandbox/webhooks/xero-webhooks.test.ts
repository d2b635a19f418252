import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startXeroEmulator, type XeroEmulator } from '../../../sandbox/xero/xero-emulator.js';
import { admin, validHmac, WebhookReceiver } from './webhook-receiver.js';

const KEY = 'xero-webhook-key-for-the-emulator-tests';
let emu: XeroEmulator;
let rx: WebhookReceiver;
beforeAll(async () => {
  emu = await startXeroEmulator({ records: 20, contacts: 10, creditNotes: 8 });
  rx = await new WebhookReceiver().start();
});
afterAll(async () => {
  await emu.close();
  await rx.close();
});
beforeEach(async () => {
  emu.reset();
  await admin(emu.url, '/__admin/webhooks', { url: null });
  rx.reset();
});

/** Answers intent to receive as Xero requires: 200 when the signature checks, 401 otherwise. */
const honest = (r: { raw: string; headers: Record<string, unknown> }) =>
  validHmac(r.raw, r.headers['x-xero-signature'] as string, KEY) ? 200 : 401;

describe('Xero sandbox webhooks', () => {
  it('given a receiver that checks signatures, when the subscription is set up, then intent to receive activates it', async () => {
    rx.answer = honest;
    const res = await admin(emu.url, '/__admin/webhooks', { url: rx.url, secret: KEY });
    expect(res.body.status).toBe('active');
    expect(rx.received.map((r) => r.status)).toEqual([200, 401, 401, 200]);
    for (const r of rx.received) {
      expect(r.path).toBe('/webhooks/xero');
      expect(r.body).toMatchObject({ events: [], firstEventSequence: 0, lastEventSequence: 0 });
    }
  });

  it('given a receiver that answers 200 to everything, when the subscription is set up, then it stays unverified and no event is sent', async () => {
    const res = await admin(emu.url, '/__admin/webhooks', { url: rx.url, secret: KEY });
    expect(res.body.status).toBe('unverified');
    const before = rx.received.length;
    await admin(emu.url, '/__admin/changes', { entity: 'invoices', op: 'edit', count: 2 });
    expect((await admin(emu.url, '/__admin/webhooks')).body.stats.notSent).toBe(2);
    expect(rx.received.length).toBe(before);
  });

  it('given an active subscription, when invoices, credit notes and contacts change, then one signed batch carries every event with sequences', async () => {
    rx.answer = honest;
    await admin(emu.url, '/__admin/webhooks', { url: rx.url, secret: KEY });
    const handshake = rx.received.length;
    const inv = await admin(emu.url, '/__admin/changes', { entity: 'invoices', op: 'edit', count: 3 });
    await rx.until(handshake + 1);
    const cn = await admin(emu.url, '/__admin/changes', { entity: 'credit-notes', op: 'create', count: 1 });
    await rx.until(handshake + 2);
    const ct = await admin(emu.url, '/__admin/changes', { entity: 'customers', op: 'edit', count: 1 });
    await rx.until(handshake + 3);
    const deliveries = rx.received.slice(handshake);
    type Batch = { events: Array<Record<string, string>>; firstEventSequence: number; lastEventSequence: number };
    for (const d of deliveries) expect(validHmac(d.raw, d.headers['x-xero-signature'], KEY)).toBe(true);
    const batches = deliveries.map((d) => d.body as Batch);
    expect(batches.map((b) => [b.firstEventSequence, b.lastEventSequence])).toEqual([
      [1, 3],
      [4, 4],
      [5, 5],
    ]);
    const events = batches.flatMap((b) => b.events);
    expect(events.map((e) => [e.eventCategory, e.eventType, e.resourceId])).toEqual([
      ...inv.body.changes.map((c: { id: string }) => ['INVOICE', 'UPDATE', c.id]),
      ['CREDITNOTE', 'CREATE', cn.body.changes[0].id],
      ['CONTACT', 'UPDATE', ct.body.changes[0].id],
    ]);
    const body = batches[0]!;
    expect(body.events[0]).toMatchObject({
      tenantId: emu.tenantIds[0],
      tenantType: 'ORGANISATION',
      resourceUrl: `${emu.apiBase}/Invoices/${inv.body.changes[0].id}`,
    });
    expect(body.events[0]!.eventDateUtc).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/);
  });

  it('given a receiver failing with 500 twice, when an invoice changes, then Xero retries until it gets 200', async () => {
    rx.answer = honest;
    await admin(emu.url, '/__admin/webhooks', { url: rx.url, secret: KEY, retryDelaysMs: [5, 5, 5] });
    const start = rx.received.length;
    rx.answer = (r, i) => (i < start + 2 ? 500 : honest(r));
    await admin(emu.url, '/__admin/changes', { entity: 'invoices', op: 'void', count: 1 });
    await rx.until(start + 3);
    expect(rx.received.slice(start).map((r) => r.status)).toEqual([500, 500, 200]);
    expect(new Set(rx.received.slice(start).map((r) => r.raw)).size).toBe(1);
  });

  it('given retries that run out, when deliveries keep failing, then the subscription is disabled', async () => {
    rx.answer = honest;
    await admin(emu.url, '/__admin/webhooks', { url: rx.url, secret: KEY, retryDelaysMs: [5] });
    const start = rx.received.length;
    rx.answer = () => 503;
    await admin(emu.url, '/__admin/changes', { entity: 'invoices', op: 'edit', count: 1 });
    await rx.until(start + 2);
    await expect.poll(async () => (await admin(emu.url, '/__admin/webhooks')).body.status).toBe('disabled');
  });
});
