import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrintedRun } from '../../operations/list-runs.js';
import { DRIFT_KINDS } from '../../jobs/reconcile/drift.js';
import { ALREADY_RUNNING } from '../../jobs/admission/run-record.js';
import { utcDate } from '../../src/billing/dates.js';
import type { RunRecord } from '../../src/pipeline/run-history.js';
import { type CliRun, expectOneLineError, runCli } from '../support/cli.js';
import { CONNECTION, type Harness, startHarness } from '../support/harness.js';

/** `erp-sync runs`: a connection's last pulls, backfill windows and reconciliations, a table for people and JSON for scripts. */
describe('erp-sync runs (the command)', () => {
  let p: Harness;
  const T = Date.parse('2026-03-01T10:00:00Z');
  const runs = async (args: string[]): Promise<CliRun> =>
    runCli(['runs', '--config', await p.configFile(), ...args], { env: p.secretEnv });
  const pullCounts = { pulled: 20, enqueued: 3, unchanged: 17, notForBilling: 0, quarantined: 0, deleted: 0, pages: 1 };
  // Written in this order; each ends a minute after the one before.
  const recorded: RunRecord[] = [
    {
      kind: 'pull',
      connection: CONNECTION,
      entity: 'invoices',
      jobId: 'repeat:a:1',
      attempt: 1,
      startedAt: T,
      endedAt: T + 1500,
      outcome: 'ok',
      counts: pullCounts,
    },
    {
      kind: 'backfill-window',
      connection: CONNECTION,
      entity: 'invoices',
      window: { from: '2025-01-01', to: '2025-01-30' },
      runId: 'bf-zoho-rel-1',
      jobId: 'bf-zoho-rel-1-invoices-2025-01-01',
      attempt: 2,
      startedAt: T + 60_000,
      endedAt: T + 62_000,
      outcome: 'ok',
      counts: { ...pullCounts, enqueued: 20, unchanged: 0, notForBilling: 2 },
    },
    {
      kind: 'pull',
      connection: CONNECTION,
      entity: 'customers',
      jobId: 'repeat:b:2',
      attempt: 1,
      startedAt: T + 119_000,
      endedAt: T + 120_000,
      outcome: 'failed',
      error: 'zoho-books GET /contacts → 503 code 1000: Injected 503',
      retrying: true,
      counts: {},
    },
    {
      kind: 'reconcile',
      connection: CONNECTION,
      window: { from: '2026-03-01', to: '2026-03-01' },
      jobId: 'repeat:c:3',
      attempt: 1,
      startedAt: T + 170_000,
      endedAt: T + 180_000,
      outcome: 'ok',
      counts: {
        ...Object.fromEntries(DRIFT_KINDS.map((k) => [k, 0])),
        field_mismatch: 2,
        total: 2,
        needsPerson: 0,
        checkedBilling: 40,
        checkedLedger: 41,
        checkedSource: 0,
      },
    },
    {
      kind: 'pull',
      connection: CONNECTION,
      entity: 'invoices',
      jobId: 'repeat:a:4',
      attempt: 1,
      startedAt: T + 240_000,
      endedAt: T + 240_000,
      outcome: 'skipped',
      reason: ALREADY_RUNNING,
      counts: {},
    },
  ];

  beforeAll(async () => {
    p = await startHarness({ name: 'runs-cli', invoices: 5 });
    for (const r of recorded) await p.rt.runHistory.record(r);
  });
  afterAll(() => p?.close());

  it('given recorded runs, when runs is run, then a table lists them newest first with counts, and a line under each failed or skipped run says why', async () => {
    const r = await runs(['--connection', CONNECTION]);
    expect(r.code, r.err).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toBe(`runs of ${CONNECTION}, newest first: 5 shown; the last 50 of each stream are kept`);
    expect(lines[1]).toMatch(/^ {2}ended +kind +stream +outcome +took +counts$/);
    expect(lines.slice(2).map((l) => l.trim().replace(/ {2,}/g, ' | '))).toEqual([
      '2026-03-01T10:04:00Z | pull | invoices | skipped | 0.0 s',
      '↳ skipped: an incremental pull of this stream is already running',
      '2026-03-01T10:03:00Z | reconcile | 2026-03-01..2026-03-01 | ok | 10.0 s | drift 2 (field_mismatch 2; 0 need a person) · checked billing 40, ledger 41',
      '2026-03-01T10:02:00Z | pull | customers | failed | 1.0 s',
      '↳ failed (will be retried): zoho-books GET /contacts → 503 code 1000: Injected 503',
      '2026-03-01T10:01:02Z | backfill-window | invoices 2025-01-01..2025-01-30 | ok, attempt 2 | 2.0 s | pulled 20 · enqueued 20 · unchanged 0 · quarantined 0 · deleted 0 · not for billing 2 · pages 1',
      '2026-03-01T10:00:01Z | pull | invoices | ok | 1.5 s | pulled 20 · enqueued 3 · unchanged 17 · quarantined 0 · deleted 0 · pages 1',
    ]);
  });

  it('given --json, then it prints the runs newest first with ISO instants and durations, and nothing else on stdout', async () => {
    const r = await runs(['--connection', CONNECTION, '--json']);
    expect(r.code, r.err).toBe(0);
    const json = JSON.parse(r.out) as { connection: string; runs: PrintedRun[] };
    expect(json.connection).toBe(CONNECTION);
    expect(json.runs.map((x) => x.jobId)).toEqual(recorded.map((x) => x.jobId).reverse());
    expect(json.runs.at(-1)).toEqual({
      ...recorded[0],
      startedAt: '2026-03-01T10:00:00.000Z',
      endedAt: '2026-03-01T10:00:01.500Z',
      durationMs: 1500,
    });
  });

  it('given --entity, --kind and --limit, then only the runs they select are shown', async () => {
    const ids = async (args: string[]) => {
      const r = await runs(['--connection', CONNECTION, '--json', ...args]);
      expect(r.code, r.err).toBe(0);
      return (JSON.parse(r.out) as { runs: PrintedRun[] }).runs.map((x) => x.jobId);
    };
    expect(await ids(['--entity', 'invoices'])).toEqual([
      'repeat:a:4',
      'bf-zoho-rel-1-invoices-2025-01-01',
      'repeat:a:1',
    ]);
    expect(await ids(['--kind', 'pull', '--entity', 'invoices'])).toEqual(['repeat:a:4', 'repeat:a:1']);
    expect(await ids(['--kind', 'reconcile'])).toEqual(['repeat:c:3']);
    expect(await ids(['--limit', '2'])).toEqual(['repeat:a:4', 'repeat:c:3']);
    const none = await runs(['--connection', CONNECTION, '--entity', 'credit-notes']);
    expect(none.code, none.err).toBe(0);
    expect(none.out.trim()).toBe(`no runs of ${CONNECTION} matching --entity credit-notes recorded yet`);
  });

  it('given an unknown connection or a bad option, then exit 2 with one line saying what is wrong', async () => {
    expect(expectOneLineError(await runs(['--connection', 'nope']))).toBe(
      `erp-sync: unknown connection "nope" (configured: ${CONNECTION})`,
    );
    expect(expectOneLineError(await runs(['--connection', CONNECTION, '--kind', 'upsert']))).toBe(
      'erp-sync: --kind must be one of pull, backfill-window, reconcile, got "upsert"; see `erp-sync runs --help`',
    );
    expect(expectOneLineError(await runs(['--connection', CONNECTION, '--entity', 'bills']))).toBe(
      'erp-sync: --entity must be one of invoices, credit-notes, customers, got "bills"; see `erp-sync runs --help`',
    );
    expect(expectOneLineError(await runs(['--connection', CONNECTION, '--limit', '0']))).toBe(
      'erp-sync: --limit expects a whole number ≥ 1, got "0"; see `erp-sync runs --help`',
    );
    expect(
      expectOneLineError(await runs(['--connection', CONNECTION, '--kind', 'reconcile', '--entity', 'invoices'])),
    ).toBe('erp-sync: --entity selects pulls and backfill windows; reconcile runs have no entity');
    expect(expectOneLineError(await runs([]))).toBe(
      "erp-sync: required option '--connection <id>' not specified; see `erp-sync runs --help`",
    );
  });

  it('given `erp-sync reconcile` run by hand, clean and then with billing unreachable, then both runs are listed under the reconcile jobs the command enqueued, the second failed with its error', async () => {
    const today = utcDate(Date.now());
    const file = await p.configFile();
    const unreachable = join(dirname(file), 'billing-unreachable.yaml');
    await writeFile(unreachable, (await readFile(file, 'utf8')).replace(p.billing.url, 'http://127.0.0.1:1'));
    const reconcile = (config: string) =>
      runCli(['reconcile', '--config', config, '--connection', CONNECTION, '--from', today, '--to', today], {
        env: p.secretEnv,
      });
    expect((await reconcile(file)).code).toBe(0);
    expect((await reconcile(unreachable)).code).toBe(2);

    const r = await runs(['--connection', CONNECTION, '--kind', 'reconcile', '--limit', '2', '--json']);
    expect(r.code, r.err).toBe(0);
    const [failed, clean] = (JSON.parse(r.out) as { runs: PrintedRun[] }).runs;
    expect(clean).toMatchObject({
      kind: 'reconcile',
      window: { from: today, to: today },
      outcome: 'ok',
      counts: { total: 0 },
    });
    expect(failed).toMatchObject({
      kind: 'reconcile',
      outcome: 'failed',
      retrying: false,
      error: expect.stringMatching(/ECONNREFUSED/),
    });
    // The command enqueues the reconcile job the API enqueues (one reconcile operation) and waits for it.
    expect(clean?.jobId).toMatch(/^reconcile-now-/);
    expect(failed?.jobId).toMatch(/^reconcile-now-/);
    expect(failed?.jobId).not.toBe(clean?.jobId);
    const table = await runs(['--connection', CONNECTION, '--kind', 'reconcile', '--limit', '2']);
    expect(table.out.split(`reconcile  ${today}..${today}`).length - 1, table.out).toBe(2);
    expect(table.out).toContain('failed (not retried)');
  });
});
