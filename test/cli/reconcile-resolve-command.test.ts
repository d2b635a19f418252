import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { CONNECTION, type Harness, startHarness } from '../support/harness.js';

/** `erp-sync reconcile resolve`: the operation the API's resolve calls, from the command line. */
describe('erp-sync reconcile resolve (the command)', () => {
  let p: Harness;
  const resolve = async (args: string[]) =>
    runCli(['reconcile', 'resolve', '--connection', CONNECTION, ...args, '--config', await p.configFile()], {
      env: p.secretEnv,
    });

  beforeAll(async () => {
    p = await startHarness({ name: 'reconcile-resolve-cli', invoices: 3 });
    const at = new Date().toISOString();
    await p.rt.reconcileState.recordVerdicts(CONNECTION, 'invoices', [
      ['void-1', { at, window: '2026-11-27..2026-11-27', verdict: 'void_in_billing_only' }],
      ['stale-1', { at, window: '2026-11-27..2026-11-27', verdict: 'stale_version' }],
    ]);
  });
  afterAll(() => p?.close());

  it('given drift that needs a person, when resolved with a note, then the resolution is stored with who and the note, exit 0', async () => {
    const r = await resolve(['--erp-id', 'void-1', '--note', 'void stands', '--by', 'alice']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`${CONNECTION}/invoices/void-1: void_in_billing_only resolved by alice`);
    expect((await p.rt.reconcileState.resolutions(CONNECTION)).get('invoices|void-1')).toMatchObject({
      by: 'alice',
      note: 'void stands',
      version: null,
    });
  });

  it('given drift a repair fixes, or none, then it says so and exits 1, storing nothing', async () => {
    const fixable = await resolve(['--erp-id', 'stale-1', '--note', 'n']);
    expect(fixable.code, fixable.err).toBe(1);
    expect(fixable.out).toContain('reconcile with --repair');
    const none = await resolve(['--erp-id', 'never-1', '--note', 'n']);
    expect(none.code, none.err).toBe(1);
    expect(none.out).toContain('found no drift on it');
    expect([...(await p.rt.reconcileState.resolutions(CONNECTION)).keys()]).toEqual(['invoices|void-1']);
  });
});
