import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/until.js';
import { makeJobHelpers } from '../../app/job-helpers.js';
import type { PullPayload } from '../../jobs/catalog.js';
import { enqueueAnnounced } from '../../jobs/pull/enqueue-announced.js';
import type { PullRun } from '../../jobs/pull/types.js';
import { readAnnounced } from '../../jobs/pull/read-announced.js';
import { pullStream } from '../../jobs/pull/pull-stream.js';
import type { Runtime } from '../../jobs/runtime.js';
import type { WebhookEvent } from '../../src/webhooks/webhook-event.js';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * Webhook events become targeted reads: against the QuickBooks emulator, events of several deliveries
 * coalesce into one read by id, run through the pull's own page step (the upsert jobs a pull would make),
 * with QuickBooks' Void and Delete applied as a pull applies them.
 */
interface JournalEntry {
  seq: number;
  method: string;
  path: string;
  query?: Record<string, string>;
}
let h: Harness;
let emu: { url: string };
let rt: Runtime;
let conn: string;
let ids: string[];

async function journal(): Promise<JournalEntry[]> {
  const body = (await (await fetch(`${emu.url}/__admin/journal`)).json()) as
    JournalEntry[] | { entries: JournalEntry[] };
  return Array.isArray(body) ? body : body.entries;
}

function runOf(data: PullPayload): PullRun {
  const handle = rt.connection(conn);
  return {
    rt: makeJobHelpers(rt).pull,
    job: { updateProgress: async () => {} },
    data,
    conn,
    entity: data.entity,
    handle,
    stream: handle.connector.streams[data.entity],
    until: new Date(),
    log: rt.logger,
  };
}

beforeAll(async () => {
  h = await startHarness({
    name: 'read-announced',
    invoices: 40,
    connections: [
      {
        system: 'quickbooks',
        seed: 7,
        extra: { webhooks: { secret: 'intuit-verifier-token-for-read-announced' } },
      },
    ],
    webhooks: { port: 0, coalesceMs: 50 },
  });
  rt = h.rt;
  conn = h.connections[0]!.id;
  emu = h.emulatorOf(conn, 'quickbooks');
  const handle = rt.connection(conn);
  const stream = handle.connector.streams.invoices;
  ids = [];
  for await (const page of stream.read(
    handle.readContext({ logger: rt.logger, until: new Date() }),
    stream.initialState(undefined),
  )) {
    ids.push(
      ...page.records
        .filter((r) => !r.deleted && !r.draft && !r.notForBilling && r.lifecycle === 'issued')
        .map((r) => r.id),
    );
    if (ids.length >= 5) break;
  }
  ids = ids.slice(0, 5);
}, 60_000);
afterAll(() => h?.close());

describe('a targeted read of announced invoices', () => {
  it('given events of three deliveries (a change twice, a void, a delete, one the ledger already holds), when the read runs, then one read by id fetches the others, the void is written as a void, the delete marked as a pull marks it, and nothing else is read', async () => {
    const [changed, changedToo, voided, deleted, known] = ids as [string, string, string, string, string];
    expect(ids.length).toBe(5);
    // The ledger holds `known` at a version newer than its event, and `deleted` as written before.
    const entry = { hash: 'h'.repeat(64), billingId: 'b', writtenAt: Date.now() };
    await rt.ledger.put(conn, 'invoices', known, { ...entry, version: '2099-01-01T00:00:00.000Z' });
    await rt.ledger.put(conn, 'invoices', deleted, { ...entry, version: '2020-01-01T00:00:00.000Z' });
    for (const [id, op] of [
      [voided, 'void'],
      [deleted, 'delete'],
    ] as const) {
      const res = await fetch(`${emu.url}/__admin/invoices/${id}/${op}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.ok, `${op} ${id}`).toBe(true);
    }
    const now = new Date().toISOString();
    const ev = (id: string, op: WebhookEvent['op'], at = now): WebhookEvent => ({ entity: 'invoices', id, op, at });
    const deliveries = [
      [ev(changed, 'change', '2026-01-01T00:00:00.000Z'), ev(changedToo, 'change')],
      [ev(changed, 'change'), ev(voided, 'void')],
      [ev(deleted, 'delete'), ev(known, 'change', '2026-06-01T00:00:00.000Z')],
    ];
    for (const d of deliveries) await enqueueAnnounced(rt, conn, d);

    const jobs = (await rt.queues.pull.getJobs(['delayed', 'wait', 'prioritized'])).filter((j) => j.data.webhook);
    expect(jobs.map((j) => j.id)).toEqual([`webhook-${conn}-invoices-0`]);

    // Lookups are cached in a running worker: warm them, then count what the read itself costs.
    const handle = rt.connection(conn);
    const stream = handle.connector.streams.invoices;
    const ctx = handle.readContext({ logger: rt.logger, until: new Date() });
    await stream.lookups?.(ctx);
    const callsOf = async (work: () => Promise<unknown>) => {
      const before = Math.max(0, ...(await journal()).map((e) => e.seq));
      await work();
      return (await journal()).filter((e) => e.seq > before).length;
    };
    let result: Awaited<ReturnType<typeof readAnnounced>> | undefined;
    const announcedCalls = await callsOf(async () => {
      result = await readAnnounced(runOf(jobs[0]!.data as PullPayload), 0);
    });
    // What one read by id of the three records to read costs: the five events of three deliveries cost no more.
    const oneRead = await callsOf(async () => {
      for await (const page of stream.readByIds!(ctx, [changed, changedToo, voided])) void page;
    });
    expect(announcedCalls).toBe(oneRead);
    expect(result).toMatchObject({ pulled: 4, enqueued: 3, deleted: 1, unchanged: 1 });
    const upserts = await rt.queues.upsert.getJobs(['wait', 'prioritized', 'delayed']);
    const byId = new Map(upserts.map((j) => [j.data.erpId as string, j.data]));
    expect([...byId.keys()].sort()).toEqual([changed, changedToo, voided].sort());
    expect(byId.get(voided)).toMatchObject({ sourceLifecycle: 'void' });
    expect(byId.get(changed)).toMatchObject({ sourceLifecycle: 'issued' });
    expect((await rt.ledger.get(conn, 'invoices', deleted))?.sourceDeletedAt).toBeTruthy();
    // A void is never a delete.
    expect((await rt.ledger.get(conn, 'invoices', voided))?.sourceDeletedAt).toBeUndefined();
  }, 60_000);

  it('given the read of a batch ran, when it runs again (a retry after it finished), then it reads nothing; events arriving now make the next batch', async () => {
    const before = Math.max(0, ...(await journal()).map((e) => e.seq));
    const again = await readAnnounced(runOf({ connectionId: conn, entity: 'invoices', webhook: { batch: 0 } }), 0);
    expect(again).toMatchObject({ pulled: 0, enqueued: 0 });
    expect((await journal()).filter((e) => e.seq > before)).toEqual([]);
    await enqueueAnnounced(rt, conn, [{ entity: 'invoices', id: ids[0]!, op: 'change', at: new Date().toISOString() }]);
    const jobs = (await rt.queues.pull.getJobs(['delayed', 'wait', 'prioritized'])).filter((j) => j.data.webhook);
    expect(jobs.map((j) => j.id).sort()).toEqual([`webhook-${conn}-invoices-0`, `webhook-${conn}-invoices-1`]);
  });

  it('given a read that failed after taking its batch, when it is retried, then it acts on the same events', async () => {
    const events = await rt.webhookEvents.claim(conn, 'invoices', 1);
    expect(events.map((e) => e.id)).toEqual([ids[0]]);
    // The first attempt died here; its retry claims the same batch again.
    expect((await rt.webhookEvents.claim(conn, 'invoices', 1)).map((e) => e.id)).toEqual([ids[0]]);
    await rt.webhookEvents.finish(conn, 'invoices', 1);
    expect(await rt.webhookEvents.claim(conn, 'invoices', 1)).toEqual([]);
  });

  it('given a pull worker, when a delivery is made durable, then the worker runs its targeted read after the coalescing window and enqueues the upsert, leaving no run record', async () => {
    const workers = h.startWorkers(['pull']);
    try {
      const id = ids[1]!;
      await fetch(`${emu.url}/__admin/invoices/${id}/edit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ docNumber: 'WH-0001' }),
      });
      const runsBefore = await rt.runHistory.list(conn, { entity: 'invoices' });
      await enqueueAnnounced(rt, conn, [{ entity: 'invoices', id, op: 'change', at: new Date().toISOString() }]);
      await until(
        'the targeted read to enqueue the edited invoice',
        async () =>
          (await rt.queues.upsert.getJobs(['wait', 'prioritized'])).some(
            (j) => j.data.erpId === id && JSON.stringify(j.data.body).includes('WH-0001'),
          ),
        30_000,
        100,
      );
      expect(await rt.runHistory.list(conn, { entity: 'invoices' })).toEqual(runsBefore);
    } finally {
      await workers.stop(1000);
    }
  }, 60_000);

  it("given deliveries had been accepted, when a safety-net pull finds a change no delivery announced, then it counts it (erpsync_webhook_missed_total) on the connection's webhook health", async () => {
    // Deliveries are arriving (this one announces another record); then an invoice is created with none.
    await enqueueAnnounced(rt, conn, [{ entity: 'invoices', id: ids[0]!, op: 'change', at: new Date().toISOString() }]);
    const res = await fetch(`${emu.url}/__admin/invoices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ docNumber: 'NOT-ANNOUNCED-1' }),
    });
    expect(res.ok).toBe(true);
    const id = ((await res.json()) as { Id: string }).Id;
    const missedBefore = (await rt.webhookHealth.read(conn)).missed;
    const result = await pullStream(runOf({ connectionId: conn, entity: 'invoices' }));
    expect(result.unannounced).toBeGreaterThanOrEqual(1);
    const counted = (await rt.metrics.webhookMissed.get()).values.find((v) => v.labels.connection === conn)?.value;
    expect(counted).toBe(result.unannounced);
    expect((await rt.webhookHealth.read(conn)).missed).toBe(missedBefore + result.unannounced!);
    const upserts = await rt.queues.upsert.getJobs(['wait', 'prioritized']);
    expect(
      upserts.some(
        (j) => JSON.stringify(j.data).includes(`"erpId":"${id}"`) && JSON.stringify(j.data).includes('NOT-ANNOUNCED-1'),
      ),
    ).toBe(true);
  }, 60_000);
  it('given a Delete event for an invoice QuickBooks still has (a wrong or forged delivery), when the read runs, then the invoice is read as a change and the ledger never marks it deleted', async () => {
    // ids[3] was deleted in the emulator by the first test; ids[1] still exists.
    const live = ids[1]!;
    await rt.ledger.put(conn, 'invoices', live, {
      hash: 'h'.repeat(64),
      billingId: 'b-live',
      writtenAt: Date.now(),
      version: '2020-01-01T00:00:00.000Z',
    });
    await enqueueAnnounced(rt, conn, [{ entity: 'invoices', id: live, op: 'delete', at: new Date().toISOString() }]);
    const jobs = (await rt.queues.pull.getJobs(['delayed', 'wait', 'prioritized'])).filter(
      (j) => j.data.webhook && j.data.entity === 'invoices',
    );
    const batch = Math.max(...jobs.map((j) => (j.data as PullPayload).webhook!.batch));
    const result = await readAnnounced(runOf({ connectionId: conn, entity: 'invoices', webhook: { batch } }), batch);
    expect(result).toMatchObject({ deleted: 0 });
    const entry = await rt.ledger.get(conn, 'invoices', live);
    expect(entry?.sourceDeletedAt).toBeUndefined();
  }, 60_000);
});
