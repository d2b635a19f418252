import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { collectConnections } from '../../operations/list-connections.js';
import { type CliRun, expectOneLineError, runCli } from '../support/cli.js';
import { CONNECTION, type Harness, SECOND_CONNECTION, startHarness } from '../support/harness.js';

type View = Awaited<ReturnType<typeof collectConnections>>;

/** `erp-sync connections [--json]`, `connections pause ID [--reason TEXT]`, `connections resume ID`. */
describe('erp-sync connections (the command)', () => {
  let p: Harness;
  const cli = async (args: string[]): Promise<CliRun> =>
    runCli(['connections', ...args, '--config', await p.configFile()], { env: p.secretEnv });
  const view = async (): Promise<View> => {
    const r = await cli(['--json']);
    expect(r.code, r.err).toBe(0);
    return JSON.parse(r.out) as View;
  };
  const one = (v: View, id: string) => v.connections.find((c) => c.id === id)!;

  beforeAll(async () => {
    p = await startHarness({ name: 'connections-cli', invoices: 5, secondConnection: true });
  });
  afterAll(() => p?.close());

  it('given two connections, when listed, then each shows its state, schedule, streams (last run, last success, lag, last error) and its quota against its limits', async () => {
    await p.rt.syncStatus.recordSuccess(CONNECTION, 'invoices', Date.now() - 42_000);
    await p.rt.syncStatus.recordLastError(CONNECTION, 'customers', 'the vendor said no');
    const v = await view();
    expect(v.connections.map((c) => c.id)).toEqual([CONNECTION, SECOND_CONNECTION]);
    const c = one(v, CONNECTION);
    expect(c).toMatchObject({
      system: 'zoho-books',
      state: 'running',
      paused: null,
      heldJobs: 0,
      parkedUntil: null,
      vendor: { up: true },
      schedule: { everySeconds: 3600, entities: ['customers', 'invoices'] },
      quota: { used: { minute: 0, day: 0, inflight: 0 }, limits: { perMinute: 1_000_000, concurrency: 8 } },
    });
    const invoices = c.entities.find((e) => e.entity === 'invoices')!;
    expect(invoices.lagSeconds).toBeGreaterThanOrEqual(42);
    expect(invoices.lagSeconds).toBeLessThan(60);
    expect(invoices.lastRun).toBe(invoices.lastSuccess);
    expect(c.entities.find((e) => e.entity === 'customers')).toMatchObject({
      lastSuccess: null,
      lagSeconds: null,
      lastError: { message: 'the vendor said no' },
    });

    const text = await cli([]);
    expect(text.code, text.err).toBe(0);
    expect(text.out).toContain(
      `${CONNECTION} (zoho-books): running\n  schedule     every 3600 s: customers, invoices\n`,
    );
    expect(text.out).toMatch(/ {2}invoices {5}last run \S+, last success \S+ \(lag \d+ s\)\n/);
    expect(text.out).toMatch(/ {15}last error \S+: the vendor said no\n/);
    expect(text.out).toContain('  quota used   minute 0/1000000, day 0/∞, in flight 0/8\n');
  });

  it('given changes written to billing by the workers, when listed, then each connection shows its change → billing p50 and p99 over the last hour', async () => {
    await p.rt.freshness.add(CONNECTION, [0.5, 1.25, 2, 9.5]);
    const v = await view();
    expect(one(v, CONNECTION).freshness).toEqual({
      p50Seconds: 1.25,
      p99Seconds: 9.5,
      samples: 4,
      windowSeconds: 3600,
      alertAboveSeconds: 5,
    });
    expect(one(v, SECOND_CONNECTION).freshness).toMatchObject({ p50Seconds: null, samples: 0 });
    const text = await cli([]);
    // 9.5 s is above the 5 s ErpSyncChangeToBillingSlow alerts on: the line says so.
    expect(text.out).toContain(
      "  freshness    change → billing p50 1.25 s, p99 9.5 s (4 change(s), last 60 min), p99 above the alert's 5 s\n",
    );
    expect(text.out).toContain('  freshness    no change written to billing in the last 60 min\n');
  });

  it('given its vendor down, then the connection shows so', async () => {
    await p.rt.outages.markDown(SECOND_CONNECTION, 'HTTP 503 from the vendor');
    try {
      expect(one(await view(), SECOND_CONNECTION)).toMatchObject({
        state: 'vendor-down',
        vendor: { up: false, lastError: 'HTTP 503 from the vendor' },
      });
      expect((await cli([])).out).toMatch(
        new RegExp(`${SECOND_CONNECTION} \\(zoho-books\\): vendor DOWN since \\S+: HTTP 503 from the vendor`),
      );
    } finally {
      await p.rt.outages.markUp(SECOND_CONNECTION);
    }
  });

  it('given an id that is not configured, when pause or resume runs, then exit 2 in one line naming the configured ids, and nothing is paused', async () => {
    for (const verb of ['pause', 'resume']) {
      const r = await cli([verb, 'nope']);
      expect(expectOneLineError(r)).toBe(
        `erp-sync: unknown connection "nope" (configured: ${CONNECTION}, ${SECOND_CONNECTION})`,
      );
    }
    expect(expectOneLineError(await cli(['pause']))).toContain("missing required argument 'id'");
    expect(await p.rt.connectionControl.state('nope')).toEqual({ state: 'running' });
  });

  it('when a connection is paused with a reason, then it is paused for every process, shown by connections and status, and a second pause changes nothing', async () => {
    const r = await cli(['pause', CONNECTION, '--reason', 'vendor migration']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(new RegExp(`^${CONNECTION}: paused since \\S+; its jobs are held from their next start`));
    const state = await p.rt.connectionControl.state(CONNECTION);
    expect(state).toMatchObject({ state: 'paused', reason: 'vendor migration', by: expect.stringContaining('@') });
    const since = new Date((state as { since: number }).since).toISOString();

    const v = await view();
    expect(one(v, CONNECTION)).toMatchObject({ state: 'paused', paused: { since, reason: 'vendor migration' } });
    expect(one(v, SECOND_CONNECTION).state).toBe('running');
    expect((await cli([])).out).toContain(`${CONNECTION} (zoho-books): PAUSED since ${since} by `);

    const status = await runCli(['status', '--json', '--config', await p.configFile()], { env: p.secretEnv });
    expect(status.code, status.err).toBe(0);
    const s = JSON.parse(status.out) as { connections: Array<{ id: string; paused: unknown }> };
    expect(s.connections.find((c) => c.id === CONNECTION)?.paused).toMatchObject({ since, reason: 'vendor migration' });
    expect(s.connections.find((c) => c.id === SECOND_CONNECTION)?.paused).toBeNull();
    const statusText = await runCli(['status', '--config', await p.configFile()], { env: p.secretEnv });
    expect(statusText.out).toContain(`  PAUSED since ${since} by `);

    const again = await cli(['pause', CONNECTION, '--reason', 'something else']);
    expect(again.code, again.err).toBe(0);
    expect(again.out.trim()).toBe(`${CONNECTION}: already paused since ${since} (vendor migration); nothing changed`);
  });

  it('when a paused connection is resumed, then it runs again and each of its entities is pulled once, at the incremental priority', async () => {
    const before = await p.rt.queues.pull.getJobs(['wait', 'prioritized', 'delayed']);
    const r = await cli(['resume', CONNECTION]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(
      new RegExp(
        `^${CONNECTION}: resumed \\(paused since \\S+\\); released 0 held job\\(s\\); pulling customers, invoices now`,
      ),
    );
    expect(await p.rt.connectionControl.state(CONNECTION)).toEqual({ state: 'running' });
    const added = (await p.rt.queues.pull.getJobs(['wait', 'prioritized', 'delayed'])).filter(
      (j) => !before.some((b) => b.id === j.id),
    );
    expect(
      added
        .map((j) => j.data as { connectionId: string; entity: string })
        .sort((a, b) => a.entity.localeCompare(b.entity)),
    ).toEqual([
      { connectionId: CONNECTION, entity: 'customers', waitForRunning: true },
      { connectionId: CONNECTION, entity: 'invoices', waitForRunning: true },
    ]);
    for (const j of added) expect(j.opts.priority).toBe(1);

    const again = await cli(['resume', CONNECTION]);
    expect(again.code, again.err).toBe(0);
    expect(again.out.trim()).toBe(`${CONNECTION}: was not paused; nothing to resume`);
    expect(one(await view(), CONNECTION)).toMatchObject({ state: 'running', paused: null });
  });
});
