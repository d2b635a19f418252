import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../../../app/create-runtime.js';
import { makeJobHelpers } from '../../../app/job-helpers.js';
import { validateSettings } from '../../../connectors/registry.js';
import { PRIORITY } from '../../../jobs/catalog.js';
import { pullStream } from '../../../jobs/pull/pull-stream.js';
import type { PullRun } from '../../../jobs/pull/types.js';
import type { Runtime } from '../../../jobs/runtime.js';
import type { RunningSandbox } from '../../../sandbox/kit/profile.js';
import { PROFILES } from '../../../sandbox/profiles.js';
import { parseConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/observability/logger.js';
import { connect, dropPrefix, TEST_REDIS_URL, testPrefix } from '../../support/redis.js';

/**
 * A first sync on a connection that takes webhooks reads history: its calls take the `history` quota
 * lane and its upserts run after the incremental ones, so a change a webhook announced is not written
 * behind a first sync's pages. Against the QuickBooks emulator, real Redis.
 */
const redis = connect();
const prefix = testPrefix('first-sync-priority');
let emu: RunningSandbox;
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
  const qbo = PROFILES.find((p) => p.name === 'quickbooks')!;
  emu = await qbo.start({ port: 0, host: '127.0.0.1', seed: 11, records: 20, demo: true });
  conn = emu.demo.connectionId;
  const config = parseConfig(
    {
      billing: { url: 'http://127.0.0.1:1', apiKey: 'k' },
      redis: { url: TEST_REDIS_URL, prefix },
      webhooks: { port: 0 },
      connections: [{ ...emu.demo.connection(), webhooks: { secret: 'verifier-token-of-at-least-32-characters' } }],
    },
    {},
    validateSettings,
    'first-sync-priority test config',
  );
  rt = await createRuntime(config, TEST_REDIS_URL, createLogger({ level: 'silent', format: 'json' }));
}, 60_000);
afterAll(async () => {
  await rt?.close();
  await emu?.close();
  await dropPrefix(redis, prefix);
  redis.disconnect();
});

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
