import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { CONNECTION, type Harness, SECOND_CONNECTION, startHarness, until } from '../support/harness.js';

/**
 * Pausing a connection is honoured by every worker process, and resuming it releases its held jobs at
 * once. Two real worker processes (the built CLI) sync two Zoho Books connections,
 * each with its own emulator, whose journal counts every request it answers. The operator pauses one
 * with `erp-sync connections pause`; its source changes and its pulls are enqueued (several of each
 * stream, so both processes take some): no request reaches its ERP from either process, while the
 * other connection goes on syncing. `erp-sync connections resume` releases the held pulls at once (none is left
 * waiting out its hold).
 */
/** How long a job of a paused connection is put back for before it looks again. */
const HOLD_SECONDS = 600;

describe('given two worker processes syncing two connections', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({
      name: 'pause-two-workers',
      invoices: 20,
      secondConnection: true,
      sync: { pausedRecheckSeconds: HOLD_SECONDS },
    });
  });
  afterAll(() => p?.close());

  const connections = async (args: string[]) =>
    runCli(['connections', ...args, '--config', await p.configFile()], { env: p.secretEnv });
  const heldLines = (out: string) =>
    out.split('\n').filter((l) => l.includes('"connection paused: job held until it is resumed"')).length;

  it('when one connection is paused, then neither process calls its ERP while the other connection syncs on; when it is resumed, its held pulls are released at once and its records reach billing', async () => {
    const { rt } = p;
    const zoho2 = p.zoho2!;
    const workers = await Promise.all([p.spawnWorker(['pull', 'upsert']), p.spawnWorker(['pull', 'upsert'])]);
    // Their schedulers' first runs sync both connections.
    await until(
      'both connections to be synced',
      async () =>
        (await p.drained()) &&
        (await rt.ledger.count(SECOND_CONNECTION, 'invoices')) > 0 &&
        (await p.compareWithSource()).problems.length === 0,
      60_000,
      250,
    );

    const paused = await connections(['pause', CONNECTION, '--reason', 'reliability test']);
    expect(paused.code, paused.err).toBe(0);
    const callsAtPause = p.zoho.journal.list().length;
    const pausedAt = Date.now();

    // The paused connection's source changes; so does the other's.
    const mine = [...p.billingInvoices().keys()].slice(0, 2);
    for (const id of mine) p.zoho.store.editInvoice(id);
    p.zoho.store.createInvoice();
    const theirs: Array<{ id: string; version: number }> = [];
    for (const inv of zoho2.store.invoices()) {
      if (theirs.length === 2) break;
      if (!(await rt.ledger.get(SECOND_CONNECTION, 'invoices', inv.invoice_id))) continue;
      const edit = zoho2.store.editInvoice(inv.invoice_id);
      theirs.push({ id: edit.id, version: Date.parse(edit.last_modified_time!) });
    }
    expect(theirs).toHaveLength(2);

    // Pulls of both, three of each stream of the paused connection (so both processes take some).
    const heldIds: string[] = [];
    for (const round of [1, 2, 3])
      for (const entity of ['customers', 'invoices'] as const) {
        const job = await rt.queues.pull.add(
          'pull',
          { connectionId: CONNECTION, entity },
          { priority: 1, jobId: `paused-${round}-${entity}` },
        );
        heldIds.push(job.id!);
      }
    for (const entity of ['customers', 'invoices'] as const)
      await rt.queues.pull.add('pull', { connectionId: SECOND_CONNECTION, entity }, { priority: 1 });

    await until(
      "the paused connection's pulls to be held and the other connection's edits to reach billing",
      async () => {
        if ((await rt.connectionControl.heldCount(CONNECTION)) !== heldIds.length) return false;
        for (const id of heldIds) if ((await rt.queues.pull.getJobState(id)) !== 'delayed') return false;
        for (const t of theirs) {
          const entry = await rt.ledger.get(SECOND_CONNECTION, 'invoices', t.id);
          if (!entry || Date.parse(entry.version) !== t.version) return false;
        }
        return true;
      },
      30_000,
      250,
    );
    expect(p.zoho.journal.list().slice(callsAtPause)).toEqual([]);
    for (const id of heldIds) {
      const job = (await rt.queues.pull.getJob(id))!;
      expect(job.attemptsMade, id).toBe(0);
      expect(job.failedReason, id).toBeFalsy();
    }
    const heldBy = workers.map((w) => heldLines(w.output()));
    expect(heldBy.reduce((a, n) => a + n, 0)).toBeGreaterThanOrEqual(heldIds.length);
    const pausedFor = Date.now() - pausedAt;

    const resumedAt = Date.now();
    const resumed = await connections(['resume', CONNECTION]);
    expect(resumed.code, resumed.err).toBe(0);
    // The held pulls cover both streams: the resume enqueues no other pull.
    expect(resumed.out).toContain(`released ${heldIds.length} held job(s)`);
    expect(resumed.out).not.toContain('pulling');
    // Released at once: held, the pulls would wait out their hold (HOLD_SECONDS, minus 10 % jitter) before
    // running again; released, they run as soon as the workers take them. Waiting for the records a tenth
    // of the hold tells the two apart on any machine, with no bound on how fast the resume command starts.
    await until(
      'the paused connection to be in step with its source again',
      async () => (await p.compareWithSource()).problems.length === 0,
      (HOLD_SECONDS * 1000) / 10,
      100,
    );
    const caughtUpMs = Date.now() - resumedAt;
    expect(await rt.connectionControl.heldCount(CONNECTION)).toBe(0);
    await p.waitForDrain(30_000);

    for (const w of workers) {
      w.kill('SIGTERM');
      expect(await w.exited).toEqual({ code: 0, signal: null });
    }
    console.info(
      `[pause, two workers] paused ${(pausedFor / 1000).toFixed(1)} s: ${heldIds.length} pulls held (by process: ${heldBy.join(' + ')} hold log lines), ` +
        `0 calls to its ERP, the other connection synced on; after the resume its records were in billing in ${(caughtUpMs / 1000).toFixed(1)} s`,
    );
  }, 240_000);
});
