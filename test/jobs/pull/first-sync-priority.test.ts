import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeJobHelpers } from '../../../app/job-helpers.js';
import { PRIORITY } from '../../../jobs/catalog.js';
import { pullStream } from '../../../jobs/pull/pull-stream.js';
import type { PullRun } from '../../../jobs/pull/types.js';
import type { Runtime } from '../../../jobs/runtime.js';
import { type Harness, startHarness } from '../../support/harness.js';

/**
 * A first sync on a connection that takes webhooks reads history: its calls take the `history` quota
 * lane and its upserts run after the incremental ones, so a change a webhook announced is not written
 * behind a first sync's pages. Against the QuickBooks emulator, real Redis.
 */
let h: Harness;
let rt: Runtime;
let conn: string;

function incrementalRun(): PullRun {
  const handle = rt.connection(conn);
  return {
    rt: makeJobHelpers(rt).pull,
    job: { updateProgress: async () => {} },
    data: { connectionId: conn, entity: 'invoices' },
    conn,
    entity: 'invoices',
    handle,
    stream: handle.connector.streams.invoices,
    until: new Date(),
    log: rt.logger,
    lane: 'current',
  };
}

const upsertPriorities = async () =>
  new Set((await rt.queues.upsert.getJobs(['wait', 'prioritized', 'delayed'])).map((j) => j.opts.priority));

beforeAll(async () => {
  h = await startHarness({
    name: 'first-sync-priority',
    invoices: 20,
    connections: [
      { system: 'quickbooks', seed: 11, extra: { webhooks: { secret: 'verifier-token-of-at-least-32-characters' } } },
    ],
    webhooks: { port: 0 },
  });
  rt = h.rt;
  conn = h.connections[0]!.id;
}, 60_000);
afterAll(() => h?.close());

describe('a first sync on a connection that takes webhooks', () => {
  it('given no checkpoint, when the incremental pull runs, then it reads in the history lane and its upserts wait behind incremental ones; the next pull, synced, is current again', async () => {
    const first = incrementalRun();
    const result = await pullStream(first);
    expect(result.enqueued).toBeGreaterThan(0);
    expect(first.lane).toBe('history');
    expect(await upsertPriorities()).toEqual(new Set([PRIORITY.history]));

    const next = incrementalRun();
    await pullStream(next);
    expect(next.lane).toBe('current');
  });
});
