import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcDate } from '../../src/billing/dates.js';
import { runCli } from '../support/cli.js';
import { COMPANY, CONNECTION, type Harness, startHarness } from '../support/harness.js';

/**
 * `reconcile --repair` with a worker running its schedulers (a pull scheduler always keeps a delayed
 * pull in the queue, so "wait until the pull queue drains" never ends): the repair waits only for the
 * pull it enqueued and the upserts that pull enqueued, finishes, and a reconcile after it is clean.
 * `--json` output is the only thing on stdout, with the command logging at info level.
 */
describe('given a synced connection whose worker runs its job schedulers, and two invoices altered in billing', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({ name: 'repair', invoices: 30, customers: 5 });
  });
  afterAll(() => p?.close());

  it('when `reconcile --repair --json` runs, then it completes, and the next reconcile reports clean', async () => {
    const { rt } = p;
    const worker = await p.spawnWorker(['pull', 'upsert', 'backfill']);
    const { runId } = await p.backfill();
    await p.waitForBackfill(runId, 90_000);
    // The schedulers keep their next runs queued (delayed): the queue never drains.
    expect((await rt.queues.pull.getDelayed()).some((j) => j.id?.startsWith('repeat:'))).toBe(true);
    // A person mirrors the source's voids in billing (no sync can void), so only the injected drift remains.
    for (const inv of p.zoho.store.invoices().filter((i) => i.status === 'void')) {
      const e = await rt.ledger.get(CONNECTION, 'invoices', inv.invoice_id);
      if (e) await admin(p, `/invoices/${encodeURIComponent(e.billingId)}/void`);
    }

    const altered = [...p.billingInvoices().values()].filter((i) => i.lifecycleStatus === 'FINALIZED').slice(0, 2);
    for (const inv of altered)
      await admin(p, `/invoices/${encodeURIComponent(inv.input.invoiceId)}/patch`, { invoiceTotal: 1 });

    const today = utcDate(Date.now());
    const args = [
      'reconcile',
      '--connection',
      CONNECTION,
      '--from',
      today,
      '--to',
      today,
      '--config',
      await p.configFile(),
    ];
    const t0 = Date.now();
    const repaired = await runCli([...args, '--repair', '--json'], {
      env: { ...p.secretEnv, LOG_LEVEL: 'info' },
      timeoutMs: 120_000,
    });
    const seconds = (Date.now() - t0) / 1000;
    expect(repaired.signal).toBeNull();
    expect(repaired.code, repaired.err).toBe(1); // drift was found (and repaired)
    const first = JSON.parse(repaired.out) as {
      counts: Record<string, number>;
      repaired: { requeued: number; by: string; records: Array<{ erpId: string; action: string; jobId?: string }> };
    };
    expect(first.counts.field_mismatch).toBe(2);
    expect(first.repaired.requeued).toBe(2);
    // Read again by id: one entry per record, each re-enqueued under a repair job id.
    expect(first.repaired.by).toBe('id');
    expect(first.repaired.records.map((r) => [r.erpId, r.action]).sort()).toEqual(
      altered.map((i) => [i.input.erpId, 're-enqueued']).sort(),
    );
    for (const r of first.repaired.records) expect(r.jobId).toMatch(/-r[0-9a-f]+$/);

    const after = await runCli([...args, '--json'], { env: p.secretEnv, timeoutMs: 60_000 });
    expect(after.code, after.err).toBe(0);
    const second = JSON.parse(after.out) as { total: number };
    expect(second.total).toBe(0);
    for (const inv of altered) expect(p.billingInvoices().get(inv.input.erpId!)?.input.invoiceTotal).not.toBe(1);
    worker.kill('SIGTERM');
    await worker.exited;
    console.info(
      `[repair] 2 altered invoices found and repaired in ${seconds.toFixed(1)} s with the schedulers running; the next reconcile is clean`,
    );
  }, 180_000);
});

async function admin(p: Harness, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${p.billing.url}/__admin${path}?company=${COMPANY}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`admin ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}
