import { Queue } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { purgeQuarantined } from '../../operations/purge-quarantined.js';
import { replayQuarantined } from '../../operations/replay-quarantined.js';
import { selectQuarantined } from '../../operations/select-quarantined.js';
import { Checkpoints } from '../../src/pipeline/checkpoints.js';
import { InFlight } from '../../src/pipeline/in-flight.js';
import { stateKeys } from '../../src/pipeline/keys.js';
import { Quarantine, type QuarantineEntry } from '../../src/pipeline/quarantine.js';
import { connect, dropPrefix, TEST_REDIS_URL, testPrefix } from '../support/redis.js';

const C = 'acme-zoho';
const HASH = 'a'.repeat(64);

/** A record billing refused (its upsert payload kept for a replay), and two the mapper refused. */
const upsertFailure: QuarantineEntry = {
  connection: C,
  entity: 'invoices',
  erpId: 'inv-1',
  version: '2026-11-02T10:00:00.000Z',
  reason: 'BILLING_REJECTED',
  message: 'invoiceTotal: does not add up',
  stage: 'upsert',
  at: 1,
  payload: {
    connectionId: C,
    entity: 'invoices',
    erpId: 'inv-1',
    version: '2026-11-02T10:00:00.000Z',
    hash: HASH,
    body: { invoice: {} },
  },
};
const mapFailure = (erpId: string, version: string): QuarantineEntry => ({
  connection: C,
  entity: 'credit-notes',
  erpId,
  version,
  reason: 'FX_UNDERIVABLE',
  message: 'no exchange rate',
  stage: 'map',
  at: 1,
});

/** Replay, purge and selection of quarantined records, on real Redis stores and queues (no worker runs). */
describe('replayQuarantined, purgeQuarantined, selectQuarantined', () => {
  const prefix = testPrefix('replay-quarantined');
  const redis = connect();
  const keys = stateKeys(prefix);
  const connection = { url: TEST_REDIS_URL, maxRetriesPerRequest: null };
  const queues = {
    upsert: new Queue('upsert', { connection, prefix }),
    pull: new Queue('pull', { connection, prefix }),
  };
  const rt = {
    queues,
    inFlight: new InFlight(redis, keys),
    checkpoints: new Checkpoints(redis, keys),
    quarantine: new Quarantine(redis, keys),
    connection: (id: string) => {
      if (id !== C) throw new Error(`unknown connection "${id}"`);
      return undefined as never;
    },
  };
  afterAll(async () => {
    await Promise.all([queues.upsert.close(), queues.pull.close()]);
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given an upsert failure and two map failures, when replayed, then the upsert is enqueued again under a new job id and tracked in flight, and the stream is rewound to before its oldest version and pulled', async () => {
    await rt.checkpoints.save(C, 'credit-notes', { cursor: '2026-11-05T00:00:00.000Z' });
    const entries = [
      upsertFailure,
      mapFailure('cn-1', '2026-11-03T00:00:00.000Z'),
      mapFailure('cn-2', '2026-11-01T00:00:10.000Z'),
    ];
    const r = await replayQuarantined(rt, entries);
    expect(r).toEqual({ replayed: 3, reenqueued: 1, repulled: ['credit-notes'] });
    const [upsert] = await queues.upsert.getJobs(['wait', 'prioritized']);
    expect(upsert!.id).toMatch(/-r[0-9a-z]+$/);
    expect(upsert!.data).toEqual({ ...(upsertFailure.payload as object), path: 'replay' });
    expect((await rt.inFlight.get(C, 'invoices', 'inv-1'))?.jobId).toBe(upsert!.id);
    expect((await rt.checkpoints.get<{ cursor: string }>(C, 'credit-notes'))?.state.cursor).toBe(
      '2026-11-01T00:00:09.000Z',
    );
    const [pull] = await queues.pull.getJobs(['wait', 'prioritized']);
    expect(pull!.data).toEqual({ connectionId: C, entity: 'credit-notes' });
  });

  it('given a quarantine, when a selection names an entity or one record, then only those are selected, with the count of all; purged, they are gone and the others stay', async () => {
    for (const e of [upsertFailure, mapFailure('cn-1', '2026-11-03T00:00:00.000Z')]) await rt.quarantine.put(e);
    expect(await selectQuarantined(rt, { connection: C, entity: 'credit-notes' })).toMatchObject({
      inQuarantine: 2,
      entries: [{ erpId: 'cn-1' }],
    });
    const one = await selectQuarantined(rt, { connection: C, erpId: 'inv-1' });
    expect(one.entries.map((e) => e.erpId)).toEqual(['inv-1']);
    expect(await purgeQuarantined(rt, one.entries)).toEqual({ purged: 1 });
    expect((await rt.quarantine.list(C)).map((e) => e.erpId)).toEqual(['cn-1']);
    await expect(selectQuarantined(rt, { connection: 'nope' })).rejects.toThrow('unknown connection "nope"');
  });
});
