import { Queue } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { jobOptions } from '../../jobs/catalog.js';
import { pauseConnection } from '../../operations/pause-connection.js';
import { syncNow, syncNowEntities } from '../../operations/sync-now.js';
import type { EntityName } from '../../src/connector/entities.js';
import { ConnectionControl } from '../../src/pipeline/connection-control.js';
import { stateKeys } from '../../src/pipeline/keys.js';
import { connect, dropPrefix, TEST_REDIS_URL, testPrefix } from '../support/redis.js';

const C = 'acme-zoho';

/** A person's "sync now" and pause, on real Redis and a real pull queue (no worker runs). */
describe('syncNow, pauseConnection', () => {
  const prefix = testPrefix('sync-now');
  const redis = connect();
  const pull = new Queue('pull', { connection: { url: TEST_REDIS_URL, maxRetriesPerRequest: null }, prefix });
  const rt = {
    queues: { pull },
    options: { pull: { attempts: 3 } } as Pick<ReturnType<typeof jobOptions>, 'pull'>,
    connectionControl: new ConnectionControl(redis, stateKeys(prefix)),
    connection: (id: string) => {
      if (id !== C) throw new Error(`unknown connection "${id}"`);
      return undefined as never;
    },
  };
  afterAll(async () => {
    await pull.close();
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given a connection, then a sync now pulls every entity of it, or the one named, and refuses an entity it does not sync or that does not exist', () => {
    const connection: { id: string; entities: EntityName[] } = { id: C, entities: ['customers', 'invoices'] };
    expect(syncNowEntities(connection)).toEqual(['customers', 'invoices']);
    expect(syncNowEntities(connection, 'invoices')).toEqual(['invoices']);
    expect(() => syncNowEntities(connection, 'credit-notes')).toThrow(
      `--entity credit-notes is not synced for connection "${C}" (its entities: customers, invoices)`,
    );
    expect(() => syncNowEntities(connection, 'bills')).toThrow('--entity must be one of');
  });

  it('given no worker, when synced now, then one incremental pull per entity is enqueued (waiting for a running pull) and the result says no worker runs', async () => {
    const r = await syncNow(rt, C, ['customers', 'invoices']);
    expect(r).toMatchObject({
      state: 'enqueued',
      workers: 'none',
      pulls: [
        { entity: 'customers', state: 'enqueued' },
        { entity: 'invoices', state: 'enqueued' },
      ],
    });
    const jobs = await pull.getJobs(['prioritized', 'wait']);
    expect(jobs.map((j) => j.data).sort((a, b) => a.entity.localeCompare(b.entity))).toEqual([
      { connectionId: C, entity: 'customers', waitForRunning: true },
      { connectionId: C, entity: 'invoices', waitForRunning: true },
    ]);
    expect(jobs.every((j) => j.opts.attempts === 3)).toBe(true);
  });

  it('given a paused connection, when synced now, then nothing is enqueued and the result carries the pause (by, reason)', async () => {
    await pull.obliterate({ force: true });
    expect(await pauseConnection(rt, C, { by: 'ops@host', reason: 'vendor migration' })).toMatchObject({
      connection: C,
      changed: true,
    });
    const r = await syncNow(rt, C, ['invoices']);
    expect(r).toMatchObject({ connection: C, state: 'paused', pause: { by: 'ops@host', reason: 'vendor migration' } });
    expect(await pull.getJobCounts('wait', 'prioritized', 'delayed')).toEqual({ wait: 0, prioritized: 0, delayed: 0 });
    await expect(pauseConnection(rt, 'nope')).rejects.toThrow('unknown connection "nope"');
  });
});
