import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackfill } from '../../cli/commands/backfill.js';
import type { PreviewResult } from '../../operations/preview-stream.js';
import { type CliRun, expectOneLineError, runCli } from '../support/cli.js';
import { CONNECTION, HISTORY, type Harness, startHarness } from '../support/harness.js';

/** `erp-sync preview`: what a pull would send or quarantine, read from the source, and nothing written. */
describe('erp-sync preview (the command)', () => {
  let p: Harness;
  const preview = async (args: string[]): Promise<CliRun> =>
    runCli(['preview', '--connection', CONNECTION, ...args, '--config', await p.configFile()], { env: p.secretEnv });
  const previewJson = async (args: string[]): Promise<PreviewResult> => {
    const r = await preview([...args, '--json']);
    expect(r.code, r.err).toBe(0);
    return JSON.parse(r.out) as PreviewResult;
  };
  /** Everything preview must leave alone: billing's requests, checkpoints, quarantine, queued jobs, ledger. */
  const untouched = async () => ({
    billingRequests: p.journal().length,
    checkpoints: await p.rt.checkpoints.all(CONNECTION),
    quarantine: await p.rt.quarantine.count(CONNECTION),
    upserts: await p.rt.queues.upsert.getJobCounts(),
    pulls: await p.rt.queues.pull.getJobCounts(),
    ledger: await p.rt.ledger.count(CONNECTION, 'invoices'),
  });

  beforeAll(async () => {
    p = await startHarness({ name: 'preview-cli', invoices: 40 });
    // One invoice whose total does not add up (the emulator renders its cached amounts): the mapping refuses it.
    const broken = p.zoho.store.invoices().find((i) => i.status !== 'void')!;
    broken.amounts = { ...broken.amounts, totalMinor: broken.amounts.totalMinor + 100 };
  }, 60_000);
  afterAll(() => p?.close());

  it('given nothing synced yet, when preview --json runs, then every invoice is listed as the mapping decides it, with its body, and nothing is written', async () => {
    const before = await untouched();
    const { mapped, quarantined } = await p.expectedInvoices();
    const r = await previewJson(['--limit', '1000']);
    expect(r.start).toEqual({ from: 'beginning', cursor: null });
    expect(r.limited).toBe(false);
    const sent = r.records.filter((x) => x.outcome === 'new');
    expect(new Set(sent.map((x) => x.erpId))).toEqual(new Set(mapped.keys()));
    for (const x of sent) expect(x.body).toEqual(JSON.parse(JSON.stringify(mapped.get(x.erpId)!.body)));
    const refused = r.records.filter((x) => x.outcome === 'quarantine');
    expect(refused.length).toBeGreaterThan(0);
    expect(new Map(refused.map((x) => [x.erpId, x.quarantine!.reason]))).toEqual(quarantined);
    for (const x of refused) expect(x.quarantine!.message).toMatch(/\S/);
    expect(await untouched()).toEqual(before);
  }, 60_000);

  it('given --limit, then it stops after that many records and says more may follow', async () => {
    const r = await preview(['--limit', '3']);
    expect(r.code, r.err).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(
        `^preview ${CONNECTION} invoices: from the beginning \\(no checkpoint\\) to \\S+; nothing is written$`,
      ),
    );
    expect(lines.slice(1, -2)).toHaveLength(3);
    expect(lines.at(-2)).toMatch(/^3 record\(s\): .* — stopped at --limit; more may follow$/);
    // From the beginning, how long a first sync of the stream takes at the quota (here no daily cap: the minute's).
    expect(lines.at(-1)).toMatch(
      /^first sync: \d+ invoices in the source, ~\d+ calls: about \d+ minutes? at the minute limit$/,
    );
  }, 60_000);

  it('given the history synced, when preview runs from --from, then the synced records are "unchanged", and nothing is written', async () => {
    p.startWorkers(['pull', 'upsert', 'backfill']);
    await runBackfill(
      p.rt,
      { connectionId: CONNECTION, entities: ['customers', 'invoices'], from: HISTORY.from, to: HISTORY.to },
      { quiet: true },
    );
    await p.waitForDrain();
    const before = await untouched();
    const r = await previewJson(['--from', HISTORY.from, '--limit', '1000']);
    expect(r.start).toEqual({ from: '--from', cursor: `${HISTORY.from}T00:00:00.000Z` });
    const outcomes = new Set(r.records.map((x) => x.outcome));
    outcomes.delete('quarantine');
    expect([...outcomes]).toEqual(['unchanged']);
    const text = await preview(['--from', HISTORY.from, '--limit', '2']);
    expect(text.out).toMatch(
      / INV-\S+ {2}\d+(\.\d+)? [A-Z]{3} {2}v\S+ {2}unchanged \(billing holds this content; skipped\)/,
    );
    expect(await untouched()).toEqual(before);
  }, 120_000);

  it('given an unknown connection or an entity the connection does not sync, then exit 2 with one line', async () => {
    const r = await runCli(['preview', '--connection', 'nope', '--config', await p.configFile()], { env: p.secretEnv });
    expect(expectOneLineError(r)).toContain('unknown connection "nope"');
    const cn = await preview(['--entity', 'credit-notes']);
    expect(expectOneLineError(cn)).toBe(
      `erp-sync: --entity credit-notes is not synced for connection "${CONNECTION}" (its entities: customers, invoices)`,
    );
    const bad = await preview(['--from', 'yesterday']);
    expect(expectOneLineError(bad)).toBe(
      'erp-sync: --from expects a day YYYY-MM-DD (UTC) or an ISO instant with its zone (2025-06-01T09:00:00Z, 2025-06-01T14:30:00+05:30), got "yesterday"',
    );
  }, 60_000);
});

describe('erp-sync preview on a connection that does not sync drafts', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({ name: 'preview-drafts', invoices: 60, syncDrafts: false });
    p.startWorkers(['pull', 'upsert', 'backfill']);
    await runBackfill(
      p.rt,
      { connectionId: CONNECTION, entities: ['customers', 'invoices'], from: HISTORY.from, to: HISTORY.to },
      { quiet: true },
    );
    await p.waitForDrain();
  }, 120_000);
  afterAll(() => p?.close());

  it('given a synced invoice back to draft in the ERP, when preview runs, then it says what the pull would: that one quarantined RETURNED_TO_DRAFT, the drafts billing never held skipped as drafts', async () => {
    const billing = p.billingInvoices();
    const synced = p.zoho.store
      .invoices()
      .find(
        (i) =>
          billing.has(i.invoice_id) &&
          i.status !== 'void' &&
          i.payments.length === 0 &&
          i.writeOffMinor === 0 &&
          p.zoho.store.creditsAppliedMinor(i.invoice_id) === 0,
      )!;
    expect(synced).toBeDefined();
    // Zoho stamps whole seconds: the edit must fall in a later second than the version billing holds.
    const second = Math.floor(Date.now() / 1000);
    await new Promise<void>((resolve) => {
      const check = () => (Math.floor(Date.now() / 1000) > second ? resolve() : setImmediate(check));
      check();
    });
    p.zoho.store.editInvoice(synced.invoice_id, { mark_as_draft: true });
    const before = { billingRequests: p.journal().length, quarantine: await p.rt.quarantine.count(CONNECTION) };
    const run = await runCli(
      [
        'preview',
        '--connection',
        CONNECTION,
        '--from',
        HISTORY.from,
        '--limit',
        '1000',
        '--json',
        '--config',
        await p.configFile(),
      ],
      {
        env: p.secretEnv,
      },
    );
    expect(run.code, run.err).toBe(0);
    const r = JSON.parse(run.out) as PreviewResult;
    const back = r.records.find((x) => x.erpId === synced.invoice_id)!;
    expect(back).toMatchObject({ outcome: 'quarantine', quarantine: { reason: 'RETURNED_TO_DRAFT' } });
    expect(back.quarantine!.message).toMatch(/back to draft in the ERP/);
    const drafts = p.zoho.store.invoices().filter((i) => i.status === 'draft' && !billing.has(i.invoice_id));
    expect(drafts.length).toBeGreaterThan(0);
    for (const d of drafts)
      expect(r.records.find((x) => x.erpId === d.invoice_id)).toMatchObject({
        outcome: 'skipped',
        skipped: { kind: 'draft' },
      });
    expect(r.counts.skipped).toBe(drafts.length);
    expect({ billingRequests: p.journal().length, quarantine: await p.rt.quarantine.count(CONNECTION) }).toEqual(
      before,
    );
  }, 60_000);
});
