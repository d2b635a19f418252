import { expect } from 'vitest';
import { CONNECTION, type Harness, until } from './harness.js';

/**
 * The kill -9 scenario both kill tests run (one Redis, and a Redis Cluster): a real CLI worker process
 * runs a backfill of `invoices` and is killed with SIGKILL after a third of them; the source changes
 * while no worker runs (10 invoices already in billing, 10 not yet); a second worker takes the stalled
 * jobs back and finishes. Billing must end at each record's newest version, with nothing lost.
 * Returns the line the test prints.
 */
export async function killWorkerMidBackfill(p: Harness, invoices: number, label: string): Promise<string> {
  const INVOICES = invoices;
  const { rt } = p;
  const ledger = () => rt.ledger.count(CONNECTION, 'invoices');
  const stalled: Array<{ job: string; at: number }> = [];
  for (const q of ['upsert', 'pull'] as const)
    (await p.queueEvents(q)).on('stalled', ({ jobId }) => stalled.push({ job: `${q}:${jobId}`, at: Date.now() }));

  const first = await p.spawnWorker(['pull', 'upsert', 'backfill']);
  const { runId } = await p.backfill();
  const t0 = Date.now();
  await until('a third of the invoices to be upserted', async () => (await ledger()) >= INVOICES / 3, 90_000, 20);
  first.kill('SIGKILL');
  const killed = await first.exited;
  const killedAt = Date.now();
  expect(killed.signal).toBe('SIGKILL');
  const doneAtKill = await ledger();
  const activeAtKill =
    ((await rt.queues.upsert.getJobCounts('active')).active ?? 0) +
    ((await rt.queues.pull.getJobCounts('active')).active ?? 0);
  expect(doneAtKill).toBeLessThan(INVOICES);
  // The kill left work in flight: jobs that are "active" with nobody working on them.
  expect(activeAtKill).toBeGreaterThan(0);

  // The source moves on while no worker runs: 10 invoices already in billing and 10 not yet there
  // get new versions (new quantities, so new amounts).
  const written = new Set<string>();
  for await (const batch of rt.ledger.scan(CONNECTION, 'invoices')) for (const [id] of batch) written.add(id);
  const editable = p.zoho.store.invoices().filter((i) => i.status !== 'void');
  const edited = [
    ...editable.filter((i) => written.has(i.invoice_id)).slice(0, 10),
    ...editable.filter((i) => !written.has(i.invoice_id)).slice(0, 10),
  ].map((i) => i.invoice_id);
  for (const id of edited) p.zoho.store.editInvoice(id);
  expect(edited).toHaveLength(20);

  const second = await p.spawnWorker(['pull', 'upsert', 'backfill']);
  // An incremental pull (what the scheduler would run) picks the edits up alongside the backfill.
  await rt.queues.pull.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { priority: 1 });
  await p.waitForBackfill(runId, 120_000);
  const recoveredAt = Date.now();

  const result = await p.compareWithSource();
  expect(result.problems).toEqual([]);
  expect(result.expected + result.quarantinedByMapping.size).toBe(p.zoho.store.invoices().length);
  expect(result.inBilling).toBe(result.expected);
  expect(await ledger()).toBe(result.expected);
  // Nothing was given up on: no failed upsert job, nothing quarantined by the upsert stage.
  expect(await rt.queues.upsert.getJobCounts('failed')).toEqual({ failed: 0 });
  expect((await rt.quarantine.list(CONNECTION)).filter((q) => q.stage === 'upsert')).toEqual([]);
  // The killed worker's jobs were taken back by the stalled-job check (this is how they came back).
  expect(stalled.length).toBeGreaterThan(0);
  second.kill('SIGTERM');
  await second.exited;

  return (
    `[${label}] killed after ${doneAtKill}/${INVOICES} upserts (${((killedAt - t0) / 1000).toFixed(1)} s in, ${activeAtKill} jobs active); ` +
    `${result.inBilling}/${result.expected} in billing with current content ${((recoveredAt - killedAt) / 1000).toFixed(1)} s after the kill; ` +
    `${stalled.length} stalled jobs taken back, the first ${((Math.min(...stalled.map((s) => s.at)) - killedAt) / 1000).toFixed(1)} s after the kill ` +
    `(locks ${p.config.sync.lockDurationMs / 1000} s, checked every ${p.config.sync.stalledIntervalMs / 1000} s); ${edited.length} invoices edited while down`
  );
}
