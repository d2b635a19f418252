import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reloadConfig } from '../../app/reload-config.js';
import { documentRoutesOf } from '../../app/document-routes.js';
import { validateSettings } from '../../connectors/registry.js';
import type { Journal } from '../../sandbox/kit/journal.js';
import { parseConfig } from '../../src/config.js';
import { signDocumentRef, verifyDocumentToken } from '../../src/documents/document-link-token.js';
import { listen } from '../../src/http/listen.js';
import { type Harness, startHarness } from '../support/harness.js';

const PUBLIC_URL = 'https://sync.example.test';
const KEY = 'test-document-link-key-0123456789abcdefghij';

/** One document link attached in billing, with what its token names. */
interface Attached {
  url: string;
  token: string;
  connection: string;
  id: string;
}

describe('document links: QuickBooks and Xero invoices link billing to their PDF on the worker', () => {
  let h: Harness;
  let server: Server;
  let base: string;
  let attached: Attached[];
  const systemOf = (connection: string) => h.connections.find((c) => c.id === connection)!.system;
  const journalOf = (connection: string): Journal =>
    systemOf(connection) === 'quickbooks'
      ? h.emulatorOf(connection, 'quickbooks').journal
      : h.emulatorOf(connection, 'xero').journal;
  const linkOf = (system: string) => attached.find((x) => systemOf(x.connection) === system)!;
  /** The vendor calls made for a document's PDF so far (QuickBooks: …/pdf; Xero: the read by id). */
  const pdfCalls = (a: Attached) =>
    journalOf(a.connection)
      .list()
      .filter((e) => e.path.includes(`/${a.id}`) && !e.path.includes('/query')).length;
  const open = (a: Attached, token = a.token) => fetch(`${base}/documents/v1/${token}/doc.pdf`);

  beforeAll(async () => {
    h = await startHarness({
      name: 'document-links',
      invoices: 8,
      connections: [
        { system: 'quickbooks', emulator: { creditMemos: 3 }, entities: ['customers', 'invoices', 'credit-notes'] },
        { system: 'xero' },
      ],
      httpSettings: { publicUrl: PUBLIC_URL, documentLinkKey: KEY },
    });
    h.startWorkers(['pull', 'upsert', 'backfill']);
    for (const c of h.connections) await h.waitForBackfill((await h.backfill({ connectionId: c.id })).runId);
    attached = h.connections.flatMap((c) =>
      h.invoicesOf(c.company).flatMap((inv) =>
        inv.attachments.flatMap((a) => {
          const token = a.url.startsWith(`${PUBLIC_URL}/documents/v1/`) ? a.url.split('/')[5]! : '';
          const ref = verifyDocumentToken(KEY, token);
          return ref ? [{ url: a.url, token, connection: ref.connection, id: ref.id }] : [];
        }),
      ),
    );
    const app = express();
    app.use(documentRoutesOf(h.rt));
    server = createServer(app);
    await listen(server, 0, '127.0.0.1');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 180_000);

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await h?.close();
  });

  it('given http.publicUrl and a link key, when the invoices are synced, then each QuickBooks and Xero invoice in billing carries a signed link to its PDF on the worker', () => {
    for (const c of h.connections) {
      const invoices = h.invoicesOf(c.company).filter((inv) => inv.attachments.length > 0);
      expect(invoices.length, c.id).toBeGreaterThan(0);
      const links = attached.filter((a) => a.connection === c.id);
      expect(links.length, c.id).toBe(invoices.length);
      for (const a of links)
        expect(a.url).toMatch(/^https:\/\/sync\.example\.test\/documents\/v1\/[\w-]+\.[\w-]{43}\/invoice-[\w-]+\.pdf$/);
    }
    // One attachment per invoice, its purpose the buyer's copy.
    const purposes = h.connections.flatMap((c) =>
      h.invoicesOf(c.company).flatMap((i) => i.attachments.map((a) => a.purpose)),
    );
    expect(new Set(purposes)).toEqual(new Set(['INVOICE_FOR_BUYER']));
  });

  it.each(['quickbooks', 'xero'])(
    'given a %s invoice link, when billing opens it twice, then the PDF comes from one vendor call that took a quota slot, and the second open from the cache',
    async (system) => {
      const a = linkOf(system);
      const calls = pdfCalls(a);
      const since = Date.now();
      /** Quota slots of the connection taken since the first open (the connection's minute window in Redis). */
      const slotsTaken = () => h.rt.redis.zcount(h.rt.keys.quotaMinute(a.connection), since, '+inf');
      const first = await open(a);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe('application/pdf');
      expect(first.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
      const body = Buffer.from(await first.arrayBuffer());
      expect(body.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
      expect(body.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
      expect(pdfCalls(a)).toBe(calls + 1);
      expect(await slotsTaken()).toBe(1);

      const second = await open(a);
      expect(second.status).toBe(200);
      expect(Buffer.from(await second.arrayBuffer()).equals(body)).toBe(true);
      expect(pdfCalls(a)).toBe(calls + 1);
      expect(await slotsTaken()).toBe(1);
    },
  );

  it('given QuickBooks credit memos synced, then each credit note in billing carries its signed link, and opening it serves the credit memo’s PDF', async () => {
    const c = h.connections.find((x) => x.system === 'quickbooks')!;
    const notes = [...h.billing.store.company(c.company).creditNotes.values()];
    expect(notes.length).toBeGreaterThan(0);
    for (const note of notes) {
      expect(note.attachments.map((a) => a.purpose)).toEqual(['CREDITNOTE_FOR_BUYER']);
      const url = note.attachments[0]!.url;
      expect(url).toMatch(/\/credit-note-[\w-]+\.pdf$/);
      const ref = verifyDocumentToken(KEY, url.split('/')[5]!);
      expect(ref).toMatchObject({ connection: c.id, entity: 'credit-notes' });
      const res = await fetch(url.replace(PUBLIC_URL, base));
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).toString('latin1')).toContain(`CreditMemo `);
    }
  });

  it('given a tampered token, another key’s token or garbage, when opened, then 404 and no vendor call', async () => {
    const a = linkOf('quickbooks');
    const calls = pdfCalls(a);
    const [payload, mac] = a.token.split('.') as [string, string];
    const otherId = signDocumentRef(KEY, { connection: a.connection, entity: 'invoices', id: a.id }).split('.')[0]!;
    const tampered = [
      `${payload}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
      `${Buffer.from(JSON.stringify({ c: a.connection, e: 'invoices', v: `${a.id}0` })).toString('base64url')}.${mac}`,
      signDocumentRef('another-key-0123456789abcdefghijklmnop', {
        connection: a.connection,
        entity: 'invoices',
        id: a.id,
      }),
      `${otherId}x.${mac}`,
      'not-a-token',
    ];
    for (const token of tampered) {
      const res = await open(a, token);
      expect(res.status, token).toBe(404);
      expect(await res.json()).toEqual({ error: 'NOT_FOUND', message: 'no such document' });
    }
    expect(pdfCalls(a)).toBe(calls);
  });

  it('given a paused connection, when its link is opened, then 503 without a vendor call; resumed, it serves again', async () => {
    const a = linkOf('quickbooks');
    const calls = pdfCalls(a);
    await h.rt.connectionControl.pause(a.connection, { by: 'test' });
    const paused = await open(a);
    expect(paused.status).toBe(503);
    expect(((await paused.json()) as { error: string }).error).toBe('CONNECTION_PAUSED');
    expect(pdfCalls(a)).toBe(calls);
    await h.rt.connectionControl.resume(a.connection);
    expect((await open(a)).status).toBe(200);
  });

  it('given the Xero connection removed from the config by a reload, when its link is opened, then 410 and no vendor call', async () => {
    const a = linkOf('xero');
    const calls = pdfCalls(a);
    const raw = { ...h.rawConfig, connections: h.rawConfig.connections.filter((c) => c.id !== a.connection) };
    const outcome = await reloadConfig(h.rt, [], async () =>
      parseConfig(raw, h.secretEnv, validateSettings, 'document-links reload'),
    );
    expect(outcome.removed).toEqual([a.connection]);
    const gone = await open(a);
    expect(gone.status).toBe(410);
    expect(((await gone.json()) as { error: string }).error).toBe('GONE');
    expect(pdfCalls(a)).toBe(calls);
  });
});

describe('document links turned on after a sync', () => {
  it('given QuickBooks invoices synced while http.publicUrl was unset, when a reload sets it and the history is read again, then each invoice gets its link once, and reading it again attaches nothing more', async () => {
    const h = await startHarness({
      name: 'document-links-later',
      invoices: 5,
      connections: [{ system: 'quickbooks' }],
      httpSettings: { documentLinkKey: KEY },
    });
    try {
      const c = h.connections[0]!;
      const invoices = () => h.invoicesOf(c.company);
      const attachments = () => invoices().flatMap((i) => i.attachments);
      h.startWorkers(['pull', 'upsert', 'backfill']);
      await h.waitForBackfill((await h.backfill({ connectionId: c.id })).runId);
      expect(invoices().length).toBeGreaterThan(0);
      expect(attachments()).toEqual([]);

      const raw = { ...h.rawConfig, http: { ...h.rawConfig.http, publicUrl: PUBLIC_URL } };
      const outcome = await reloadConfig(h.rt, [], async () =>
        parseConfig(raw, h.secretEnv, validateSettings, 'document-links-later reload'),
      );
      expect(outcome.result).toBe('ok');
      await h.waitForBackfill((await h.backfill({ connectionId: c.id, restart: true })).runId);
      expect(invoices().every((i) => i.attachments.length === 1)).toBe(true);
      expect(attachments().every((a) => verifyDocumentToken(KEY, a.url.split('/')[5]!)?.connection === c.id)).toBe(
        true,
      );

      await h.waitForBackfill((await h.backfill({ connectionId: c.id, restart: true })).runId);
      expect(attachments().length).toBe(invoices().length);
    } finally {
      await h.close();
    }
  }, 180_000);
});
