import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Service } from '../../app/service.js';
import { createLogger } from '../../src/observability/logger.js';
import { CONNECTION, type Harness, startHarness, until, UPSERT_PATH } from '../support/harness.js';

/**
 * Outages wait instead of failing. The whole attempt budget of an upsert here is 3 attempts, 100 ms
 * backoff doubling, each billing call tried 1 + 2 times in-process (p-retry, 200 ms → 2 s): about 3 s in
 * all against a billing that answers 503 at once. Billing is down for 25 s, several times that budget
 * (with the defaults, 8 attempts from 2 s doubling, the budget is about 4.5 minutes, so this is a
 * 35-minute outage in real terms). After 3 consecutive transient failures the upsert queue pauses, one
 * worker probes billing every second, and the jobs wait without using attempts.
 */
const INVOICES = 60;
const ATTEMPTS = 3;
const OUTAGE_MS = 25_000;

describe('given a backfill running against a billing service that goes down for longer than the whole attempt budget', () => {
  let p: Harness;
  let svc: Service;
  beforeAll(async () => {
    p = await startHarness({
      name: 'long-outage',
      invoices: INVOICES,
      sync: { attempts: ATTEMPTS, backoffMs: 100, upsertConcurrency: 4 },
      billing: { outage: { failuresToPause: 3, probeEverySeconds: 1 } },
    });
    svc = await startService(
      p.config,
      createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent', format: 'json' }),
      {
        roles: ['pull', 'upsert', 'backfill'],
        httpPort: 0,
      },
    );
  });
  afterAll(async () => {
    await svc?.stop();
    await p?.close();
  });

  const readyz = async () => {
    const res = await fetch(`${svc.httpUrl}/readyz`);
    return {
      status: res.status,
      body: (await res.json()) as { checks: Record<string, { ok: boolean; detail?: string }> },
    };
  };

  it('when billing answers 503 to everything for 25 s, then /readyz says 503 while it is down, nothing is quarantined and every record reaches billing once it returns', async () => {
    const { rt } = p;
    // Ready before the outage: the workers running and Redis's three checks answered within their 500 ms. A
    // service just started on a loaded machine may not be there on the first probe, so the test waits for it.
    await until('/readyz 200 before the outage', async () => (await readyz()).status === 200, 30_000, 100);
    const { runId } = await p.backfill();
    await until('the first upserts to reach billing', () => p.upsertPosts() >= 10, 60_000, 10);
    p.billing.faults.set({ outageForMs: OUTAGE_MS });
    const outageFrom = Date.now();
    const before = p.upsertPosts();
    expect(before).toBeLessThan(INVOICES);

    const down = await until(
      '/readyz to say billing is down',
      async () => {
        const r = await readyz();
        return r.status === 503 && r.body.checks.billing?.ok === false ? r : undefined;
      },
      30_000,
      100,
    );
    expect(down.body.checks.billing!.detail).toMatch(/^down since /);
    const pausedAt = Date.now();
    expect(await (await fetch(`${svc.httpUrl}/metrics`)).text()).toMatch(/^erpsync_billing_up 0$/m);
    const status = await import('../../operations/collect-status.js').then((m) => m.collectStatus(rt));
    expect(status.billing).toMatchObject({ up: false });

    await p.waitForBackfill(runId, 120_000);
    const back = await readyz();
    expect(back.status).toBe(200);
    expect(back.body.checks.billing).toEqual({ ok: true });

    const refused = p.journal().filter((e) => e.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    const lastRefused = Math.max(...refused.map((e) => Date.parse(e.at)));
    expect(lastRefused - outageFrom).toBeGreaterThan(OUTAGE_MS - 2_000);
    // While paused, billing heard from the probe (one try a second) and from the jobs that were already
    // running when the pause began (each call tried at most 1 + 2 times): not a retry storm.
    const duringPause = refused.filter((e) => Date.parse(e.at) > pausedAt + 1_000);
    expect(duringPause.length).toBeLessThanOrEqual(Math.ceil((lastRefused - pausedAt) / 1000) + 4 * 3);

    expect(await rt.quarantine.list(CONNECTION)).toEqual([]);
    expect(await rt.queues.upsert.getJobCounts('failed')).toEqual({ failed: 0 });
    const result = await p.compareWithSource();
    expect(result.problems).toEqual([]);
    expect(result.inBilling).toBe(result.expected);
    const attempts = (await p.upsertJobs(['completed'])).map((j) => j.attemptsMade);
    expect(Math.max(...attempts)).toBeLessThanOrEqual(ATTEMPTS);
    console.info(
      `[long billing outage] ${OUTAGE_MS / 1000} s of 503 (attempt budget ≈ 3 s) after ${before}/${INVOICES} upserts; upserts paused ${((pausedAt - outageFrom) / 1000).toFixed(1)} s in; ` +
        `${refused.length} requests refused (${duringPause.length} while paused: probes and jobs already running); ` +
        `max attemptsMade ${Math.max(...attempts)} of ${ATTEMPTS}; 0 quarantined; ${result.inBilling}/${result.expected} in billing; ${p.journal(UPSERT_PATH).length} upsert calls`,
    );
  }, 180_000);
});
