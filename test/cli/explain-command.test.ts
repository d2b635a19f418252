import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, runCli } from '../support/cli.js';
import { CONNECTION, type Harness, startHarness } from '../support/harness.js';

/** `erp-sync explain`: exit 1 when the record was never seen, in the text and the JSON form alike. */
describe('erp-sync explain (the command)', () => {
  let p: Harness;
  const explain = async (args: string[]): Promise<CliRun> =>
    runCli(['explain', '--connection', CONNECTION, ...args, '--config', await p.configFile()], { env: p.secretEnv });

  beforeAll(async () => {
    p = await startHarness({ name: 'explain-cli', invoices: 5 });
    await p.rt.quarantine.put({
      connection: CONNECTION,
      entity: 'invoices',
      erpId: 'known-1',
      version: '2025-06-01T00:00:00.000Z',
      reason: 'AMOUNTS_INCONSISTENT',
      message: 'line totals do not add up',
      stage: 'map',
      at: Date.now(),
    });
  });
  afterAll(() => p?.close());

  it('given a record never seen, when explain --json runs, then it prints [] and exits 1', async () => {
    const r = await explain(['--erp-id', 'never-1', '--json']);
    expect(r.code, r.err).toBe(1);
    expect(JSON.parse(r.out)).toEqual([]);
  });

  it('given a record never seen, when explain runs, then it says so and exits 1', async () => {
    const r = await explain(['--erp-id', 'never-1']);
    expect(r.code, r.err).toBe(1);
    expect(r.out).toContain(`${CONNECTION}/never-1: never seen`);
  });

  it('given a quarantined record, when explain --json runs, then it prints its trace and exits 0', async () => {
    const r = await explain(['--erp-id', 'known-1', '--json']);
    expect(r.code, r.err).toBe(0);
    const json = JSON.parse(r.out) as Array<{ entity: string; quarantine: { reason: string } | null }>;
    expect(json).toHaveLength(1);
    expect(json[0]).toMatchObject({ entity: 'invoices', quarantine: { reason: 'AMOUNTS_INCONSISTENT' } });
  });
});
