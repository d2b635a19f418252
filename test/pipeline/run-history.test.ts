import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIFT_KINDS } from '../../jobs/reconcile/drift.js';
import { stateKeys } from '../../src/pipeline/keys.js';
import { RunHistory, type RunRecord } from '../../src/pipeline/run-history.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

/** A pull run as the worker writes it, ended at T0 + `n` seconds. */
function pull(n: number, over: Partial<RunRecord> = {}): RunRecord {
  return {
    kind: 'pull',
    connection: 'zoho-in',
    entity: 'invoices',
    jobId: `repeat:pull-zoho-in-invoices:${T0 + n * 300_000}`,
    attempt: 1,
    startedAt: T0 + n * 1000 - 800,
    endedAt: T0 + n * 1000,
    outcome: 'ok',
    counts: { pulled: 123, enqueued: 12, unchanged: 111, notForBilling: 0, quarantined: 0, deleted: 0, pages: 1 },
    ...over,
  };
}

function reconcile(n: number): RunRecord {
  return {
    kind: 'reconcile',
    connection: 'zoho-in',
    window: { from: '2025-12-30', to: '2025-12-31' },
    jobId: `repeat:reconcile-zoho-in:${T0 + n * 86_400_000}`,
    attempt: 1,
    startedAt: T0 + n * 1000 - 5000,
    endedAt: T0 + n * 1000,
    outcome: 'ok',
    counts: {
      ...Object.fromEntries(DRIFT_KINDS.map((k) => [k, 0])),
      total: 0,
      needsPerson: 0,
      checkedBilling: 1234,
      checkedLedger: 1234,
      checkedSource: 0,
    },
  };
}

describe('run history (RunHistory in Redis)', () => {
  const prefix = testPrefix('run-history');
  const keys = stateKeys(prefix);
  let redis: Redis;
  beforeAll(() => {
    redis = connect();
  });
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given N = 5, when 12 runs of one stream are recorded, then only the 5 newest are kept, newest first', async () => {
    const h = new RunHistory(redis, keys, 5);
    for (let n = 1; n <= 12; n++) await h.record(pull(n, { connection: 'bounded' }));
    expect(await redis.llen(keys.runs('bounded', 'pull:invoices'))).toBe(5);
    expect((await h.list('bounded')).map((r) => r.endedAt)).toEqual([12, 11, 10, 9, 8].map((n) => T0 + n * 1000));
  });

  it('given runs of several streams, when listed, then they are merged newest first, filtered by kind and entity, and cut at the limit', async () => {
    const h = new RunHistory(redis, keys, 50);
    const c = 'merged';
    await h.record(pull(1, { connection: c }));
    await h.record(pull(2, { connection: c, entity: 'customers' }));
    await h.record(
      pull(3, {
        connection: c,
        kind: 'backfill-window',
        window: { from: '2025-01-01', to: '2025-01-30' },
        runId: 'bf-1',
      }),
    );
    await h.record({ ...reconcile(4), connection: c });
    await h.record(pull(5, { connection: c, outcome: 'failed', error: 'boom', retrying: true, counts: {} }));
    const all = await h.list(c);
    expect(all.map((r) => [r.kind, r.entity ?? '-', r.outcome])).toEqual([
      ['pull', 'invoices', 'failed'],
      ['reconcile', '-', 'ok'],
      ['backfill-window', 'invoices', 'ok'],
      ['pull', 'customers', 'ok'],
      ['pull', 'invoices', 'ok'],
    ]);
    expect(all[0]).toEqual(pull(5, { connection: c, outcome: 'failed', error: 'boom', retrying: true, counts: {} }));
    expect((await h.list(c, { entity: 'invoices' })).map((r) => r.endedAt)).toEqual(
      [5, 3, 1].map((n) => T0 + n * 1000),
    );
    expect((await h.list(c, { kind: 'reconcile' })).map((r) => r.kind)).toEqual(['reconcile']);
    expect(await h.list(c, { kind: 'reconcile', entity: 'invoices' })).toEqual([]);
    expect((await h.list(c, {}, 2)).map((r) => r.endedAt)).toEqual([5, 4].map((n) => T0 + n * 1000));
  });

  it('given a backfill of many windows, when it is recorded, then the incremental pulls of the same entity keep their own N', async () => {
    const h = new RunHistory(redis, keys, 3);
    const c = 'apart';
    for (let n = 1; n <= 3; n++) await h.record(pull(n, { connection: c }));
    for (let n = 10; n < 30; n++)
      await h.record(
        pull(n, { connection: c, kind: 'backfill-window', window: { from: '2025-01-01', to: '2025-01-30' } }),
      );
    expect((await h.list(c, { kind: 'pull' })).map((r) => r.endedAt)).toEqual([3, 2, 1].map((n) => T0 + n * 1000));
    expect(await h.list(c, { kind: 'backfill-window' })).toHaveLength(3);
  });

  it('given writers in several processes at once, when runs are recorded, then no reader ever sees more than N (push and trim are one step)', async () => {
    const N = 10;
    const writers = Array.from({ length: 6 }, () => connect());
    const watcher = connect();
    try {
      const key = keys.runs('racing', 'pull:invoices');
      let writing = true;
      let seen = 0;
      let reads = 0;
      // Reads as fast as Redis answers while the writers write: a push seen before its trim would show N + 1.
      const watching = (async () => {
        while (writing) {
          seen = Math.max(seen, await watcher.llen(key));
          reads++;
        }
      })();
      await Promise.all(
        writers.map(async (w, i) => {
          const h = new RunHistory(w, keys, N);
          for (let n = 0; n < 300; n++) await h.record(pull(i * 1000 + n, { connection: 'racing' }));
        }),
      );
      writing = false;
      await watching;
      expect(reads).toBeGreaterThan(10);
      expect(seen).toBe(N);
      expect(await redis.llen(key)).toBe(N);
    } finally {
      await Promise.all([...writers, watcher].map((r) => r.quit()));
    }
  });

  it('given a very long error message, when recorded, then it is cut to 500 characters', async () => {
    const h = new RunHistory(redis, keys, 5);
    await h.record(pull(1, { connection: 'long', outcome: 'failed', error: 'x'.repeat(5000), counts: {} }));
    expect((await h.list('long'))[0]!.error).toHaveLength(500);
  });

  it('given N = 50 full lists, when Redis is asked (MEMORY USAGE), then a pull record costs under 400 bytes and a reconcile record under 650', async () => {
    const h = new RunHistory(redis, keys, 50);
    for (let n = 0; n < 60; n++) {
      await h.record(pull(n, { connection: 'memory' }));
      await h.record({ ...reconcile(n), connection: 'memory' });
    }
    const perRecord = async (stream: string) => {
      const key = keys.runs('memory', stream);
      expect(await redis.llen(key)).toBe(50);
      return Math.round(((await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) as number) / 50);
    };
    const pullBytes = await perRecord('pull:invoices');
    const reconcileBytes = await perRecord('reconcile');
    console.info(`[run history] MEMORY USAGE per record at N = 50: pull ${pullBytes} B, reconcile ${reconcileBytes} B`);
    expect(pullBytes).toBeLessThan(400);
    // A reconcile record counts every drift kind (ledger_ahead_of_source made it 601 B).
    expect(reconcileBytes).toBeLessThan(650);
  });
});
