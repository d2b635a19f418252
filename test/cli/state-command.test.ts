import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StreamCheckpoint } from '../../operations/read-checkpoint.js';
import { type CliRun, expectOneLineError, runCli } from '../support/cli.js';
import { CONNECTION, type Harness, startHarness } from '../support/harness.js';

/** `erp-sync state show|set|clear`: the incremental checkpoints, with --yes required off a terminal for what skips or re-reads. */
describe('erp-sync state (the command)', () => {
  let p: Harness;
  const JUNE = '2025-06-01T00:00:00.000Z';
  const state = async (args: string[]): Promise<CliRun> =>
    runCli(['state', ...args, '--connection', CONNECTION, '--config', await p.configFile()], { env: p.secretEnv });
  const cursor = async () =>
    (await p.rt.checkpoints.get<{ cursor: string | null }>(CONNECTION, 'invoices'))?.state.cursor;

  beforeAll(async () => {
    p = await startHarness({ name: 'state-cli', invoices: 5 });
  });
  afterAll(() => p?.close());
  beforeEach(async () => {
    await p.rt.checkpoints.save(CONNECTION, 'invoices', { cursor: JUNE });
  });

  it('given checkpoints, when show runs, then it prints each stream of the connection, and --json the checkpoint', async () => {
    const text = await state(['show']);
    expect(text.code, text.err).toBe(0);
    expect(text.out).toContain(`${CONNECTION} customers: no checkpoint; the next pull reads from the beginning`);
    expect(text.out).toMatch(new RegExp(`${CONNECTION} invoices: cursor ${JUNE} {2}saved \\S+ {2}rewinds \\d+`));
    const json = await state(['show', '--entity', 'invoices', '--json']);
    expect(json.code, json.err).toBe(0);
    expect(JSON.parse(json.out) as StreamCheckpoint).toMatchObject({
      connection: CONNECTION,
      entity: 'invoices',
      cursor: JUNE,
      state: { cursor: JUNE },
    });
  });

  it('given a cursor, when set moves it back, then the store rewinds it (the rewind count goes up) without asking', async () => {
    const { rewinds } = await p.rt.checkpoints.read(CONNECTION, 'invoices');
    const r = await state(['set', '--entity', 'invoices', '--cursor', '2025-05-01T00:00:00Z']);
    expect(r.code, r.err).toBe(0);
    expect(r.out.trim()).toBe(
      `${CONNECTION} invoices: rewound (${JUNE} → 2025-05-01T00:00:00.000Z); the next pull reads from there`,
    );
    expect(await p.rt.checkpoints.read(CONNECTION, 'invoices')).toMatchObject({
      checkpoint: { state: { cursor: '2025-05-01T00:00:00.000Z' } },
      rewinds: rewinds + 1,
    });
  });

  it('given a worker host in Asia/Kolkata, when set gets a cursor without a zone, then exit 2 in one line naming --cursor and nothing changes; with its offset it is placed by that offset', async () => {
    const inKolkata = async (args: string[]) =>
      runCli(['state', ...args, '--connection', CONNECTION, '--config', await p.configFile()], {
        env: { ...p.secretEnv, TZ: 'Asia/Kolkata' },
      });
    const refused = await inKolkata(['set', '--entity', 'invoices', '--cursor', '2025-05-01T10:00:00']);
    expect(expectOneLineError(refused)).toContain(
      '--cursor expects a day YYYY-MM-DD (UTC) or an ISO instant with its zone',
    );
    expect(await cursor()).toBe(JUNE);
    const r = await inKolkata(['set', '--entity', 'invoices', '--cursor', '2025-05-01T10:00:00+05:30']);
    expect(r.code, r.err).toBe(0);
    expect(await cursor()).toBe('2025-05-01T04:30:00.000Z');
  });

  it('given no terminal, when set moves the cursor forwards without --yes, then exit 2 in one line and nothing changes; with --yes it moves', async () => {
    const refused = await state(['set', '--entity', 'invoices', '--cursor', '2025-07-01T00:00:00Z']);
    expect(expectOneLineError(refused)).toContain('not on a terminal, so pass --yes to confirm');
    expect(await cursor()).toBe(JUNE);
    const r = await state(['set', '--entity', 'invoices', '--cursor', '2025-07-01T00:00:00Z', '--yes']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('moved forwards');
    expect(await cursor()).toBe('2025-07-01T00:00:00.000Z');
  });

  it('given no terminal, when clear runs without --yes, then exit 2 in one line and the checkpoint stays; with --yes the next pull starts from the beginning', async () => {
    const refused = await state(['clear', '--entity', 'invoices']);
    expect(expectOneLineError(refused)).toBe(
      `erp-sync: state clear makes the next pull of ${CONNECTION} invoices read the whole stream again: not on a terminal, so pass --yes to confirm`,
    );
    expect(await cursor()).toBe(JUNE);
    const r = await state(['clear', '--entity', 'invoices', '--yes']);
    expect(r.code, r.err).toBe(0);
    expect(r.out.trim()).toBe(
      `${CONNECTION} invoices: checkpoint cleared (was ${JUNE}); the next pull reads from the beginning`,
    );
    const stream = p.rt.connection(CONNECTION).connector.streams.invoices;
    expect((await p.rt.checkpoints.get(CONNECTION, 'invoices'))?.state).toEqual(stream.initialState(undefined));
  });

  it('given a pull of the stream running, when set moves forwards or clear runs, then exit 2 saying so and the checkpoint stays', async () => {
    const release = await p.rt.locks.tryAcquireIncrementalPull(CONNECTION, 'invoices', 'a-running-pull');
    expect(release).toBeDefined();
    try {
      for (const args of [
        ['clear', '--entity', 'invoices', '--yes'],
        ['set', '--entity', 'invoices', '--cursor', '2025-08-01T00:00:00Z', '--yes'],
      ]) {
        const r = await state(args);
        expect(expectOneLineError(r), args.join(' ')).toBe(
          `erp-sync: a pull of ${CONNECTION} invoices is running now; try again when it has finished`,
        );
      }
      expect(await cursor()).toBe(JUNE);
    } finally {
      await release!();
    }
  });

  it("given a connection whose state belongs to another billing company, then status says so; rebind asks (off a terminal: --yes), then binds the state to the key's company", async () => {
    const company = p.rt.connection(CONNECTION).billing.company;
    expect(company).toMatch(/^key-[0-9a-f]{8}$/);
    await p.rt.billingCompanies.set(CONNECTION, { company: 'previous-co', keyId: '0badc0de', since: Date.now() });
    const status = await runCli(['status', '--config', await p.configFile()], { env: p.secretEnv });
    expect(status.code, status.err).toBe(0);
    expect(status.out).toContain(
      `  billing company CHANGED: state written for "previous-co", key now "${company}"'s — nothing is synced until \`erp-sync state rebind --connection ${CONNECTION} --same-company|--new-company\``,
    );
    expect(expectOneLineError(await state(['rebind']))).toBe(
      'erp-sync: state rebind needs one of --same-company or --new-company',
    );
    expect(expectOneLineError(await state(['rebind', '--same-company']))).toBe(
      `erp-sync: state rebind --same-company keeps the sync state of ${CONNECTION} for the company its new key belongs to: not on a terminal, so pass --yes to confirm`,
    );
    expect(await p.rt.billingCompanies.get(CONNECTION)).toMatchObject({ company: 'previous-co' });
    const r = await state(['rebind', '--same-company', '--yes']);
    expect(r.code, r.err).toBe(0);
    expect(r.out.trim()).toBe(
      `${CONNECTION}: state kept and bound to billing company "${company}" (was "previous-co"); 0 record(s) refused meanwhile enqueued again`,
    );
    expect(await p.rt.billingCompanies.get(CONNECTION)).toMatchObject({
      company,
      keyId: p.rt.connection(CONNECTION).billing.keyId,
    });
    expect(await p.rt.checkpoints.get(CONNECTION, 'invoices')).toMatchObject({ state: { cursor: JUNE } });
    expect(expectOneLineError(await state(['rebind', '--new-company', '--yes']))).toBe(
      `erp-sync: connection ${CONNECTION}: its state already belongs to billing company "${company}", the one its key names; nothing to rebind`,
    );
  });

  it('given bad arguments, then exit 2 with one line: a missing --entity, an entity not synced, a bad cursor', async () => {
    expect(expectOneLineError(await state(['clear', '--yes']))).toBe(
      "erp-sync: required option '--entity <name>' not specified; see `erp-sync state clear --help`",
    );
    expect(expectOneLineError(await state(['show', '--entity', 'credit-notes']))).toBe(
      `erp-sync: --entity credit-notes is not synced for connection "${CONNECTION}" (its entities: customers, invoices)`,
    );
    expect(expectOneLineError(await state(['set', '--entity', 'invoices', '--cursor', 'june']))).toBe(
      'erp-sync: --cursor expects a day YYYY-MM-DD (UTC) or an ISO instant with its zone (2025-06-01T09:00:00Z, 2025-06-01T14:30:00+05:30), got "june"',
    );
  });
});
