import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOneLineError, occupyPort, runCli } from '../support/cli.js';
import { type Harness, startHarness } from '../support/harness.js';

/** `erp-sync worker`: arguments it cannot run with are one line and exit 2, before any job is scheduled. */
describe('erp-sync worker (the command)', () => {
  it('given --http-port above 65535, when the worker starts, then exit 2 naming the range', async () => {
    const r = await runCli(['worker', '--http-port', '70000']);
    expect(expectOneLineError(r)).toContain('--http-port expects a whole number from 0 to 65535, got "70000"');
  });

  it('given --roles with no role in it, when the worker starts, then exit 2 listing the roles', async () => {
    for (const roles of ['', ',', ' , ']) {
      const r = await runCli(['worker', '--roles', roles]);
      expect(expectOneLineError(r)).toContain('--roles needs at least one of pull, upsert, backfill, reconcile');
    }
  });

  describe('with a config and Redis', () => {
    let p: Harness;
    beforeAll(async () => {
      p = await startHarness({ name: 'worker-cli', invoices: 5 });
    });
    afterAll(() => p?.close());

    it('given the HTTP port is in use, when the worker starts, then exit 2 saying so, and no job scheduler was created', async () => {
      const busy = await occupyPort();
      try {
        const r = await runCli(['worker', '--config', await p.configFile(), '--http-port', String(busy.port)], {
          env: p.secretEnv,
        });
        const line = expectOneLineError(r);
        expect(line).toContain(`port ${busy.port} is already in use`);
        expect(line).toContain('choose another port with --http-port');
        expect(await p.rt.queues.pull.getJobSchedulers()).toEqual([]);
      } finally {
        await busy.close();
      }
    });
  });
});
