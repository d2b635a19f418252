import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncNowPull } from '../../cli/commands/sync.js';
import { type CliRun, expectOneLineError, runCli } from '../support/cli.js';
import { CONNECTION, type Harness, startHarness, until } from '../support/harness.js';

/** `erp-sync sync --connection ID [--entity E] --now [--wait] [--json]`: an incremental pull now. */
describe('erp-sync sync --now (the command)', () => {
  let p: Harness;
  const sync = async (args: string[]): Promise<CliRun> =>
    runCli(['sync', ...args, '--config', await p.configFile()], { env: p.secretEnv });
  const pending = async () => p.rt.queues.pull.getJobs(['wait', 'prioritized', 'delayed', 'active']);

  beforeAll(async () => {
    p = await startHarness({ name: 'sync-cli', invoices: 5 });
  });
  afterAll(() => p?.close());

  it('given no --now, a connection not configured or an entity it does not sync, then exit 2 in one line and nothing is enqueued', async () => {
    expect(expectOneLineError(await sync(['--connection', CONNECTION]))).toBe(
      "erp-sync: option '--now' is required: sync --now is the only mode so far; see `erp-sync sync --help`",
    );
    expect(expectOneLineError(await sync(['--connection', 'nope', '--now']))).toBe(
      `erp-sync: unknown connection "nope" (configured: ${CONNECTION})`,
    );
    expect(expectOneLineError(await sync(['--connection', CONNECTION, '--entity', 'credit-notes', '--now']))).toBe(
      `erp-sync: --entity credit-notes is not synced for connection "${CONNECTION}" (its entities: customers, invoices)`,
    );
    expect(expectOneLineError(await sync(['--connection', CONNECTION, '--entity', 'bills', '--now']))).toContain(
      '--entity must be one of',
    );
    expect(await pending()).toEqual([]);
  });

  it('given a paused connection, then sync --now refuses with exit 1 saying how to resume it, and nothing is enqueued', async () => {
    await p.rt.connectionControl.pause(CONNECTION, { reason: 'maintenance' });
    try {
      const r = await sync(['--connection', CONNECTION, '--now']);
      expect(r.code).toBe(1);
      expect(r.err.trim()).toMatch(
        new RegExp(
          `^erp-sync: connection ${CONNECTION} is paused since \\S+ \\(maintenance\\): nothing enqueued; resume it first: erp-sync connections resume ${CONNECTION}$`,
        ),
      );
      expect(await pending()).toEqual([]);
    } finally {
      await p.rt.connectionControl.resume(CONNECTION);
    }
  });

  it('given no worker running, when sync --now runs twice, then each run enqueues its own incremental pull per entity (new job ids, not deduplicated), at the incremental priority', async () => {
    const first = await sync(['--connection', CONNECTION, '--now']);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toMatch(
      new RegExp(
        `^${CONNECTION} customers: pull enqueued \\(job now-${CONNECTION}-customers-\\S+\\)\n${CONNECTION} invoices: pull enqueued`,
      ),
    );
    expect(first.err).toContain('no running pull workers found on this Redis: the pulls run when a worker starts');
    const second = await sync(['--connection', CONNECTION, '--entity', 'invoices', '--now', '--json']);
    expect(second.code, second.err).toBe(0);
    const out = JSON.parse(second.out) as { connection: string; pulls: SyncNowPull[] };
    expect(out).toMatchObject({ connection: CONNECTION, pulls: [{ entity: 'invoices', state: 'enqueued' }] });
    const jobs = await pending();
    expect(new Set(jobs.map((j) => j.id)).size).toBe(3);
    expect(jobs.map((j) => j.id)).toContain(out.pulls[0]!.jobId);
    for (const j of jobs) {
      expect(j.opts.priority).toBe(1);
      expect(j.data).toMatchObject({ connectionId: CONNECTION, waitForRunning: true });
    }
  });

  it('given workers running, when sync --now --wait runs, then it waits for its pulls and prints what each read, and the records reach billing', async () => {
    await p.rt.queues.pull.drain(true); // the pulls left by the test before
    p.startWorkers(['pull', 'upsert']);
    const r = await sync(['--connection', CONNECTION, '--now', '--wait', '--json']);
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out) as { connection: string; pulls: SyncNowPull[] };
    expect(out.pulls.map((x) => [x.entity, x.state])).toEqual([
      ['customers', 'completed'],
      ['invoices', 'completed'],
    ]);
    const invoices = out.pulls[1]!.result!;
    expect(invoices.pulled).toBe(5);
    expect(invoices.enqueued).toBe(5);
    await until('the invoices to reach billing', () => p.upsertPosts() === 5, 30_000);

    const text = await sync(['--connection', CONNECTION, '--entity', 'invoices', '--now', '--wait']);
    expect(text.code, text.err).toBe(0);
    expect(text.out.trim()).toMatch(
      new RegExp(
        `^${CONNECTION} invoices: pulled \\d+, enqueued 0, unchanged \\d+, quarantined 0, deleted 0 in \\d+ page\\(s\\); cursor \\S+$`,
      ),
    );
  });
});

describe('erp-sync sync --now --wait without workers', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({ name: 'sync-cli-alone', invoices: 3 });
  });
  afterAll(() => p?.close());

  it('given no worker running on the Redis, when sync --now --wait runs, then it runs the pulls in its own process and prints their results', async () => {
    const r = await runCli(
      ['sync', '--connection', CONNECTION, '--entity', 'invoices', '--now', '--wait', '--config', await p.configFile()],
      {
        env: p.secretEnv,
        timeoutMs: 30_000,
      },
    );
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('no running pull workers found on this Redis: running the pulls in this process');
    expect(r.out).toMatch(new RegExp(`^${CONNECTION} invoices: pulled 3, enqueued 3, `));
  });
});
