import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { QuarantineEntry } from '../../src/pipeline/quarantine.js';
import { type CliRun, expectOneLineError, runCli } from '../support/cli.js';
import { CONNECTION, type Harness, startHarness } from '../support/harness.js';

/** `erp-sync dlq`: an unknown connection or entity is one line and exit 2 on every subcommand. */
describe('erp-sync dlq (the command)', () => {
  let p: Harness;
  const dlq = async (args: string[]): Promise<CliRun> =>
    runCli(['dlq', ...args, '--config', await p.configFile()], { env: p.secretEnv });
  const entry = (erpId: string): QuarantineEntry => ({
    connection: CONNECTION,
    entity: 'invoices',
    erpId,
    version: '2025-06-01T00:00:00.000Z',
    reason: 'AMOUNTS_INCONSISTENT',
    message: 'line totals do not add up',
    stage: 'map',
    at: Date.now(),
  });

  beforeAll(async () => {
    p = await startHarness({ name: 'dlq-cli', invoices: 5 });
  });
  afterAll(() => p?.close());
  beforeEach(async () => {
    for (const e of await p.rt.quarantine.list(CONNECTION)) await p.rt.quarantine.remove(CONNECTION, e.entity, e.erpId);
    await p.rt.quarantine.put(entry('101'));
    await p.rt.quarantine.put(entry('102'));
  });

  it('given an unknown connection, when list, show, replay or purge runs, then exit 2 naming the configured ones', async () => {
    for (const args of [
      ['list', '--connection', 'nope'],
      ['show', '--connection', 'nope', '--entity', 'invoices', '--erp-id', '101'],
      ['replay', '--connection', 'nope'],
      ['purge', '--connection', 'nope', '--all'],
    ]) {
      const r = await dlq(args);
      expect(expectOneLineError(r), args.join(' ')).toContain(`unknown connection "nope" (configured: ${CONNECTION})`);
    }
    expect(await p.rt.quarantine.count(CONNECTION)).toBe(2);
  });

  it('given an unknown entity, when list, show, replay or purge runs, then exit 2 naming the entities, and nothing is purged', async () => {
    for (const args of [
      ['list', '--connection', CONNECTION, '--entity', 'bills'],
      ['show', '--connection', CONNECTION, '--entity', 'bills', '--erp-id', '101'],
      ['replay', '--connection', CONNECTION, '--entity', 'bills'],
      ['purge', '--connection', CONNECTION, '--entity', 'bills'],
    ]) {
      const r = await dlq(args);
      expect(expectOneLineError(r), args.join(' ')).toContain(
        '--entity must be one of invoices, credit-notes, customers, got "bills"',
      );
    }
    expect(await p.rt.quarantine.count(CONNECTION)).toBe(2);
  });

  it('given a quarantine holding other records, when list filters by an --erp-id it does not hold, then it says none matches and how many it holds', async () => {
    const r = await dlq(['list', '--connection', CONNECTION, '--erp-id', '999']);
    expect(r.code, r.err).toBe(0);
    expect(r.out.trim()).toBe(
      `no quarantined record matches --erp-id 999 (2 record(s) in quarantine for ${CONNECTION})`,
    );
  });

  it('given an empty quarantine, when list runs, then it says the quarantine is empty', async () => {
    for (const e of await p.rt.quarantine.list(CONNECTION)) await p.rt.quarantine.remove(CONNECTION, e.entity, e.erpId);
    const r = await dlq(['list', '--connection', CONNECTION, '--erp-id', '999']);
    expect(r.code, r.err).toBe(0);
    expect(r.out.trim()).toBe(`quarantine of ${CONNECTION} is empty`);
  });

  it('given filters that match nothing, when purge runs, then it says so and removes nothing', async () => {
    const r = await dlq(['purge', '--connection', CONNECTION, '--erp-id', '999']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('nothing to purge: no quarantined record matches --erp-id 999');
    expect(await p.rt.quarantine.count(CONNECTION)).toBe(2);
  });

  it('given a matching --erp-id, when list and purge run, then only that record is listed and removed', async () => {
    const list = await dlq(['list', '--connection', CONNECTION, '--erp-id', '101']);
    expect(list.code, list.err).toBe(0);
    expect(list.out).toContain('invoices/101');
    expect(list.out).not.toContain('invoices/102');
    const purge = await dlq(['purge', '--connection', CONNECTION, '--erp-id', '101']);
    expect(purge.code, purge.err).toBe(0);
    expect(purge.out.trim()).toBe('purged 1 record(s)');
    expect((await p.rt.quarantine.list(CONNECTION)).map((e) => e.erpId)).toEqual(['102']);
  });
});
