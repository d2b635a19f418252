import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { validateSettings } from '../../connectors/registry.js';
import { enqueueUpserts } from '../../jobs/upsert/enqueue-upserts.js';
import type { Runtime } from '../../jobs/runtime.js';
import { approvedJob, approveReview } from '../../operations/review-approve.js';
import { parseConfig } from '../../src/config.js';
import { AUDITED } from '../../operations/audited-actions.js';
import { audited } from '../../operations/audited.js';
import { type ChildWorker, spawnChildWorker } from '../support/child-worker.js';
import { CONNECTION, type Harness, startHarness, until, UPSERT_PATH } from '../support/harness.js';
import { type HttpGate, startHttpGate } from '../support/http-gate.js';

/**
 * Review before write, approval under a crash: a connection with `review: all` holds its whole history;
 * the approval is first cut short (its jobs enqueued, the records still held, as when its process dies
 * between the two) and then run again in full; the real CLI worker that writes the approved records is
 * killed with SIGKILL while some writes reached billing and others wait at a gate in front of it (so what
 * the dead worker was sending never arrives); a second worker finishes. Each approved record is in billing
 * once, at the approved version: nothing lost, nothing doubled.
 */
const INVOICES = 24;
/** Invoice writes let through before the gate holds the rest. */
const PASSED = 6;

describe('given a connection with review: all whose history is held, when the worker writing the approved records is killed', () => {
  let p: Harness;
  let gate: HttpGate;
  let rt: Runtime;
  let dir: string;
  let configFile: string;
  const children: ChildWorker[] = [];
  beforeAll(async () => {
    gate = await startHttpGate(() => p.billing.url);
    p = await startHarness({
      name: 'kill-approval',
      invoices: INVOICES,
      customers: 5,
      // Past the time the gate holds writes for: a request timed out would be retried.
      billing: { url: gate.url, timeoutMs: 60_000 },
    });
    const raw = structuredClone(p.rawConfig) as { connections: Array<Record<string, unknown>> };
    raw.connections[0]!.review = 'all';
    rt = await p.newRuntime(parseConfig(raw, p.secretEnv, validateSettings, 'review config'));
    dir = await mkdtemp(join(tmpdir(), 'kill-approval-'));
    configFile = join(dir, 'erp-sync.yaml');
    await writeFile(configFile, toYaml(raw));
  });
  afterAll(async () => {
    for (const c of children) {
      c.kill('SIGKILL');
      await c.exited;
    }
    await p?.close();
    await gate?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const spawn = async () => {
    const c = await spawnChildWorker(configFile, ['upsert'], p.secretEnv);
    children.push(c);
    return c;
  };

  it('then every approved record is written once, at the approved version, and the review queue is empty', async () => {
    const holding = p.startWorkers(['pull', 'upsert', 'backfill'], rt);
    const { runId } = await p.backfill();
    await p.waitForBackfill(runId);
    await p.waitForDrain();
    await holding.stop(2_000);
    const held = await rt.review.list(CONNECTION);
    const { mapped } = await p.expectedInvoices();
    expect(held.filter((e) => e.entity === 'invoices')).toHaveLength(mapped.size);
    expect(p.billingInvoices().size).toBe(0);

    // The approval cut short: its jobs are enqueued, the records still held. Run again, it adds no second job.
    await enqueueUpserts(
      rt,
      held.map((e) => approvedJob(e, 'erin')),
    );
    const audit = rt.audit;
    const all = { connection: CONNECTION, all: true };
    const by = { audit, logger: rt.logger, who: 'erin', via: 'test' };
    const approval = { action: AUDITED.approve.action, connection: CONNECTION };
    const r = await audited(
      by,
      approval,
      () => approveReview(rt, all, 'erin'),
      (x) => x.told,
    );
    expect(r.approved).toBe(held.length);
    const queued = await rt.queues.upsert.getJobs(['wait', 'prioritized', 'delayed']);
    expect(queued).toHaveLength(held.length);
    expect(await rt.review.list(CONNECTION)).toEqual([]);

    // Worker 1 writes a few invoices, then its other invoice writes wait at the gate; it is killed there.
    let passed = 0;
    gate.hold((req) => req.method === 'POST' && req.url?.split('?')[0] === UPSERT_PATH && ++passed > PASSED);
    const first = await spawn();
    await until('invoice writes held at the gate', async () => gate.held() >= 3, 60_000, 50);
    first.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    const activeAtKill = (await rt.queues.upsert.getJobCounts('active')).active ?? 0;
    expect(activeAtKill).toBeGreaterThan(0);
    await until('worker 1 writes dropped at the gate', async () => gate.held() === 0, 60_000, 50);
    const reachedBilling = p.billingInvoices().size;
    expect(reachedBilling).toBeGreaterThanOrEqual(1);
    expect(reachedBilling).toBeLessThan(mapped.size);

    // Worker 2 takes the stalled jobs back and finishes.
    gate.release();
    await spawn();
    await until(
      'every approved record written, nothing in flight',
      async () =>
        p.billingInvoices().size === mapped.size &&
        (await rt.inFlight.count(CONNECTION)) === 0 &&
        (await rt.ledger.count(CONNECTION, 'invoices')) === mapped.size,
      90_000,
      200,
    );

    // One invoice per ERP id (billingInvoices throws on two), each the source's content at the approved version.
    expect((await p.compareWithSource()).problems).toEqual([]);
    for (const e of held.filter((x) => x.entity === 'invoices'))
      expect((await rt.ledger.get(CONNECTION, 'invoices', e.erpId))?.version).toBe(e.version);
    // Nothing given up on, nothing held again.
    expect(await rt.quarantine.list(CONNECTION)).toEqual([]);
    expect((await rt.queues.upsert.getJobCounts('failed')).failed).toBe(0);
    expect(await rt.review.list(CONNECTION)).toEqual([]);
    // The approval is in the audit log with who, once.
    expect((await audit.list({ limit: 10 })).map((a) => [a.action, a.who])).toEqual([['review.approve', 'erin']]);
  }, 240_000);
});
