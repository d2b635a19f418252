import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickWebhooksPort } from '../../cli/sandbox/webhook-wiring.js';
import { COMPANY, CONNECTION, type Harness, startHarness, until } from '../support/harness.js';

/**
 * SIGTERM while vendor deliveries arrive: nothing the listener answered 2xx is lost. The worker (the real
 * CLI in a child process) takes the Zoho Books emulator's webhook deliveries, one per created invoice,
 * created one after another before, during and after its SIGTERM. The listener answers 2xx only once a
 * delivery's events are durable in Redis; a delivery refused meanwhile (503 while it stops, connection
 * refused once it is gone) is sent again by the emulator on the retry policy Zoho lets an organisation set
 * ("reattempts failed webhooks at increasing intervals":
 * https://www.zoho.com/in/books/help/settings/automation/workflow-logs.html). The incremental pull is
 * hourly and never runs here: every invoice reaching billing was written on the webhook path.
 */
const SECRET = 'sigterm-webhooks-secret-for-the-test';

describe('given a worker process taking webhook deliveries', () => {
  let p: Harness;
  let port: number;
  beforeAll(async () => {
    p = await startHarness({ name: 'sigterm-webhooks', invoices: 3 });
    port = await pickWebhooksPort(undefined, undefined, '127.0.0.1');
    // Before the config file is first written: the child reads these.
    Object.assign(p.rawConfig, { webhooks: { port, host: '127.0.0.1', coalesceMs: 50 } });
    for (const c of p.rawConfig.connections as Array<Record<string, unknown>>)
      if (c.id === CONNECTION) c.webhooks = { secret: SECRET };
    await p.zoho.webhooks.configure({
      url: `http://127.0.0.1:${port}`,
      secret: SECRET,
      connection: CONNECTION,
      retryDelaysMs: [250, 500, 1000, 2000, 4000, 8000, 8000, 8000],
    });
  });
  afterAll(() => p?.close());

  const created: string[] = [];
  const create = async () => {
    const res = await fetch(`${p.zoho.url}/__admin/changes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ entity: 'invoices', op: 'create', count: 1 }),
    });
    const { changes } = (await res.json()) as { changes: Array<{ id: string }> };
    created.push(changes[0]!.id);
  };
  const billed = () => new Set(p.billing.store.company(COMPANY).invoices.map((i) => i.input.erpId));
  const answered = (ok: boolean) =>
    p.zoho.webhooks.log.filter((a) => (a.status >= 200 && a.status < 300) === ok).length;

  it('when it gets SIGTERM mid-stream, then it exits 0; after a new worker starts, every invoice delivered is in billing, written from its delivery, and the refused deliveries were sent again and taken', async () => {
    const first = await p.spawnWorker(['pull', 'upsert']);
    // Its start-up pull (the schedule's first) has run: from here only deliveries bring changes.
    await until(
      'the start-up pull to have written the history',
      async () => {
        const pulls = await p.rt.queues.pull.getJobCounts('wait', 'prioritized', 'active');
        const idle = Object.values(pulls).every((n) => n === 0);
        return idle && (await p.rt.ledger.count(CONNECTION, 'invoices')) > 0;
      },
      30_000,
      50,
    );
    await create();
    await until('a first delivery answered 2xx', () => answered(true) > 0, 30_000, 20);

    // Deliveries keep coming while the worker stops: one invoice created every 20 ms until it has exited.
    let exited = false;
    const stream = (async () => {
      while (!exited) {
        await create();
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    await until('ten deliveries answered 2xx', () => answered(true) >= 10, 30_000, 20);
    first.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });
    exited = true;
    await stream;
    // And a few while no worker listens at all: refused, as the vendor sees a worker that is down.
    for (let i = 0; i < 3; i++) await create();
    await until('a delivery refused', () => answered(false) > 0, 10_000, 20);

    const second = await p.spawnWorker(['pull', 'upsert']);
    await until(
      `all ${created.length} created invoices in billing`,
      () => created.every((id) => billed().has(id)),
      60_000,
      50,
    );
    second.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });

    const stats = p.zoho.webhooks.stats;
    expect(stats.abandoned).toBe(0);
    expect(stats.delivered).toBeGreaterThanOrEqual(created.length);
    for (const id of created) {
      const history = await p.rt.recordHistory.list(CONNECTION, 'invoices', id);
      expect({ id, paths: history.filter((h) => h.outcome === 'written').map((h) => h.path) }).toEqual({
        id,
        paths: ['webhook'],
      });
    }
    const refused = p.zoho.webhooks.log.filter((a) => a.status < 200 || a.status >= 300);
    console.info(
      `[SIGTERM webhooks] ${created.length} invoices created, ${stats.delivered} deliveries answered 2xx, ` +
        `${stats.failedAttempts} attempts refused (${[...new Set(refused.map((a) => a.status))].join(', ')}), ` +
        `${stats.abandoned} abandoned; all ${created.length} in billing from their deliveries`,
    );
  }, 120_000);
});
