import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackfill } from '../../cli/commands/backfill.js';
import { waitForDrain } from '../../cli/drain.js';
import type { WorkerService } from '../../app/worker-service.js';
import type { ListHistoryResult, PrintedHistoryEntry } from '../../operations/list-history.js';
import { replayQuarantined } from '../../operations/replay-quarantined.js';
import { runCli } from '../support/cli.js';
import { CONNECTION, HISTORY, type Harness, startHarness } from '../support/harness.js';

/**
 * A record's history end to end: the real pipeline (Zoho emulator → pull → upsert → billing emulator,
 * real Redis), then the built CLI's `explain --json` and `history --json`.
 */
describe('given an invoice written, edited three times, voided (billing refuses that write) and replayed', () => {
  let p: Harness;
  let workers: WorkerService;
  let id: string;
  const start = new Date();
  let explained: Array<{ entity: string; history: PrintedHistoryEntry[] }>;

  const cli = async (args: string[]) =>
    runCli([...args, '--config', await p.configFile()], { env: p.secretEnv, timeoutMs: 30_000 });
  const pullInvoices = async () => {
    await p.rt.queues.pull.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { priority: 1 });
    await waitForDrain(p.rt);
  };

  beforeAll(async () => {
    p = await startHarness({ name: 'history-cli', invoices: 6 });
    workers = p.startWorkers(['pull', 'upsert', 'backfill']);
    await runBackfill(
      p.rt,
      { connectionId: CONNECTION, entities: ['customers', 'invoices'], ...HISTORY },
      { quiet: true },
    );
    const inv = p.zoho.store
      .invoices()
      .find((i) => i.status !== 'void' && i.status !== 'draft' && i.payments.length === 0 && i.writeOffMinor === 0);
    id = inv!.invoice_id;

    p.zoho.store.editInvoice(id, { due_date: '2031-01-31' });
    await pullInvoices();
    p.zoho.store.editInvoice(id, { lines: [{ index: 0, quantity: 7 }] });
    await pullInvoices();
    p.zoho.store.editInvoice(id, { reference_number: 'PO-AUDIT-3' });
    await pullInvoices();

    // Billing refuses the void's write once: the record is quarantined with billing's reason.
    const faults = await fetch(`${p.billing.url}/__admin/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ errorNext: 1, errorStatus: 422 }),
    });
    expect(faults.status).toBe(200);
    p.zoho.store.voidInvoice(id);
    await pullInvoices();
    const quarantined = await p.rt.quarantine.get(CONNECTION, 'invoices', id);
    expect(quarantined?.stage).toBe('upsert');

    await replayQuarantined(p.rt, [quarantined!]);
    await waitForDrain(p.rt);

    const r = await cli(['explain', '--connection', CONNECTION, '--erp-id', id, '--json']);
    expect(r.code, r.err).toBe(0);
    explained = JSON.parse(r.out) as typeof explained;
  }, 180_000);
  afterAll(async () => {
    await workers?.stop(5_000);
    await p?.close();
  });

  it('when explain --json runs, then the history lists each outcome in order, with its path, job and the fields each write changed', () => {
    const history = explained.find((e) => e.entity === 'invoices')!.history;
    expect(history.map((h) => [h.outcome, h.path])).toEqual([
      ['written', 'backfill'],
      ['written', 'poll'],
      ['written', 'poll'],
      ['written', 'poll'],
      ['quarantined', undefined],
      ['replayed', 'replay'],
      ['written', 'replay'],
    ]);
    const [first, dueDate, lines, reference, refused, replayed, rewritten] = history;
    // The first write has no earlier one to compare with.
    expect(first!.changed).toBeUndefined();
    expect(dueDate!.changed).toContain('invoiceDueDate');
    expect(dueDate!.changed).not.toContain('invoiceTotal');
    expect(lines!.changed).toEqual(expect.arrayContaining(['invoiceSubtotal', 'invoiceTotal', 'digest:lineItems']));
    expect(lines!.changed).not.toContain('invoiceDueDate');
    expect(reference!.changed!.length).toBeGreaterThan(0);
    expect(reference!.changed).not.toContain('invoiceTotal');
    expect(refused!.reason).toBe('BILLING_REJECTED');
    // The replay names the job it enqueued, and that job wrote the voided version.
    expect(replayed!.by).toMatch(/-r[0-9a-z]+$/);
    expect(rewritten!.by).toBe(replayed!.by);
    expect(rewritten!.version).toBe(refused!.version);
    // Each write tells its content apart and names billing's id.
    const writes = history.filter((h) => h.outcome === 'written');
    expect(new Set(writes.map((h) => h.hash)).size).toBe(writes.length);
    for (const w of writes) expect(w.billingId).toContain(id);
    expect(history.map((h) => h.at)).toEqual([...history.map((h) => h.at)].sort());
  });

  it("when history --since the start runs, then it lists every write of the period, this invoice's five in order, and nothing before the start", async () => {
    const r = await cli(['history', '--connection', CONNECTION, '--since', start.toISOString(), '--json']);
    expect(r.code, r.err).toBe(0);
    const listed = JSON.parse(r.out) as ListHistoryResult;
    expect(listed.entries.every((e) => e.outcome === 'written')).toBe(true);
    expect(listed.entries.filter((e) => e.entity === 'invoices').length).toBeGreaterThanOrEqual(6 + 4);
    const mine = listed.entries.filter((e) => e.entity === 'invoices' && e.erpId === id);
    expect(mine.map((e) => e.path)).toEqual(['backfill', 'poll', 'poll', 'poll', 'replay']);

    const before = await cli([
      'history',
      '--connection',
      CONNECTION,
      '--since',
      '2020-01-01',
      '--until',
      start.toISOString(),
      '--json',
    ]);
    expect((JSON.parse(before.out) as ListHistoryResult).entries).toEqual([]);

    const text = await cli([
      'history',
      '--connection',
      CONNECTION,
      '--since',
      start.toISOString(),
      '--entity',
      'invoices',
    ]);
    expect(text.code, text.err).toBe(0);
    expect(text.out).toMatch(
      new RegExp(`invoices/${id} \\S+ written v\\S+ hash [0-9a-f]{12} billing \\S+ by \\S+ \\(replay\\)`),
    );
  });

  it('when history gets a time it cannot read, then it is a usage error naming the option', async () => {
    const r = await cli(['history', '--connection', CONNECTION, '--since', 'yesterday']);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('--since expects a day YYYY-MM-DD or an instant with its zone');
  });
});
