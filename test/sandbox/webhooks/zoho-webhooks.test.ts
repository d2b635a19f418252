import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startZohoEmulator, type ZohoEmulator } from '../../../sandbox/zoho-books/zoho-emulator.js';
import { admin, WebhookReceiver } from './webhook-receiver.js';

const SECRET = 'zoho-custom-header-secret-for-the-tests';
let emu: ZohoEmulator;
let rx: WebhookReceiver;
beforeAll(async () => {
  emu = await startZohoEmulator({ records: 120 });
  rx = await new WebhookReceiver().start();
});
afterAll(async () => {
  await emu.close();
  await rx.close();
});
beforeEach(async () => {
  await admin(emu.url, '/__admin/reset', {});
  await admin(emu.url, '/__admin/webhooks', {
    url: null,
    retryDelaysMs: [],
    dropRate: 0,
    duplicateRate: 0,
    reorder: false,
    delayMs: 0,
  });
  rx.reset();
});

const query = (path: string) => Object.fromEntries(new URL(path, 'http://x').searchParams);

describe('Zoho Books sandbox webhooks', () => {
  it('given a workflow webhook, when invoices are edited, voided and deleted, then each record is posted with the custom header', async () => {
    await admin(emu.url, '/__admin/webhooks', { url: rx.url, secret: SECRET });
    const clean = emu.store
      .invoices()
      .filter((i) => i.status !== 'draft' && i.status !== 'void' && i.payments.length === 0)
      .filter((i) => emu.store.creditsAppliedMinor(i.invoice_id) === 0)
      .map((i) => i.invoice_id);
    expect(clean.length).toBeGreaterThanOrEqual(3);
    const change = (op: string, id: string) =>
      admin(emu.url, '/__admin/changes', { entity: 'invoices', op, ids: [id] });
    const edited = await change('edit', clean[0]!);
    await rx.until(1);
    const voided = await change('void', clean[1]!);
    await rx.until(2);
    const deleted = await change('delete', clean[2]!);
    await rx.until(3);
    expect(rx.received.map((r) => [new URL(r.path, 'http://x').pathname, query(r.path)])).toEqual([
      ['/webhooks/zoho-books/zoho-in', { module: 'invoices', event: 'edited' }],
      ['/webhooks/zoho-books/zoho-in', { module: 'invoices', event: 'edited' }],
      ['/webhooks/zoho-books/zoho-in', { module: 'invoices', event: 'deleted' }],
    ]);
    for (const r of rx.received) expect(r.headers['x-erp-sync-secret']).toBe(SECRET);
    const bodies = rx.received.map((r) => r.body as Record<string, unknown>);
    expect(bodies.map((b) => b.invoice_id)).toEqual([
      edited.body.changes[0].id,
      voided.body.changes[0].id,
      deleted.body.changes[0].id,
    ]);
    expect(bodies[1]!.status).toBe('void');
    // The edit's body is what the detail read shows now.
    const detail = emu.store.invoice(edited.body.changes[0].id)!;
    expect(bodies[0]!.last_modified_time).toBeDefined();
    expect(detail.invoice_id).toBe(bodies[0]!.invoice_id);
  });

  it('given a connection named in the settings, when a credit note and a contact change, then their modules and the connection are in the URL', async () => {
    await admin(emu.url, '/__admin/webhooks', { url: rx.url, secret: SECRET, connection: 'books-eu' });
    await admin(emu.url, '/__admin/changes', { entity: 'credit-notes', op: 'create', count: 1 });
    await rx.until(2); // the credit note, and the invoice it is applied to (Edited)
    await admin(emu.url, '/__admin/changes', { entity: 'customers', op: 'edit', count: 1 });
    await rx.until(3);
    const seen = rx.received.map(
      (r) => `${new URL(r.path, 'http://x').pathname} ${query(r.path).module} ${query(r.path).event}`,
    );
    expect(seen).toEqual(
      expect.arrayContaining([
        '/webhooks/zoho-books/books-eu creditnotes created',
        '/webhooks/zoho-books/books-eu invoices edited',
        '/webhooks/zoho-books/books-eu contacts edited',
      ]),
    );
  });

  it('given no retry policy, when the receiver answers 500, then the delivery is not retried; with a policy it is', async () => {
    await admin(emu.url, '/__admin/webhooks', { url: rx.url, secret: SECRET });
    rx.answer = () => 500;
    await admin(emu.url, '/__admin/changes', { entity: 'invoices', op: 'edit', count: 1 });
    await rx.until(1);
    await expect.poll(async () => (await admin(emu.url, '/__admin/webhooks')).body.stats.abandoned).toBe(1);
    rx.answer = (_r, i) => (i < 2 ? 500 : 200);
    await admin(emu.url, '/__admin/webhooks', { retryDelaysMs: [5, 5] });
    await admin(emu.url, '/__admin/changes', { entity: 'invoices', op: 'edit', count: 1 });
    await rx.until(3);
    expect(rx.received.map((r) => r.status)).toEqual([500, 500, 200]);
  });

  it('given a delay, when an invoice changes, then nothing arrives before the delay has passed', async () => {
    await admin(emu.url, '/__admin/webhooks', { url: rx.url, secret: SECRET, delayMs: 150 });
    const t0 = Date.now();
    await admin(emu.url, '/__admin/changes', { entity: 'invoices', op: 'edit', count: 1 });
    await rx.until(1);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(150);
  });

  it('given drops, duplicates and reordering with a seed, when the same changes are made twice, then the same deliveries arrive in the same order', async () => {
    const run = async () => {
      await admin(emu.url, '/__admin/reset', {});
      rx.reset();
      const faults = { dropRate: 0.25, duplicateRate: 0.25, reorder: true, seed: 7 };
      const set = await admin(emu.url, '/__admin/webhooks', { url: rx.url, secret: SECRET, ...faults });
      expect(set.status).toBe(200);
      const made = await admin(emu.url, '/__admin/changes', { entity: 'invoices', op: 'edit', count: 16 });
      const view = async () => (await admin(emu.url, '/__admin/webhooks')).body.stats;
      await expect.poll(async () => (await view()).delivered + (await view()).abandoned).toBeGreaterThan(0);
      const s = await view();
      await rx.until(16 - s.dropped + s.duplicated);
      return {
        made: made.body.changes.map((c: { id: string }) => c.id) as string[],
        got: rx.received.map((r) => (r.body as { invoice_id: string }).invoice_id),
        stats: s,
      };
    };
    const a = await run();
    const b = await run();
    expect(b.got).toEqual(a.got);
    expect(a.stats.dropped).toBeGreaterThan(0);
    expect(a.stats.duplicated).toBeGreaterThan(0);
    expect(a.got.length).toBe(16 - a.stats.dropped + a.stats.duplicated);
    expect(a.got).not.toEqual(a.made.filter((id) => a.got.includes(id)));
  });
});
