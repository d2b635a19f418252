import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UpsertJobData } from '../../../jobs/catalog.js';
import { settlingWithHistory } from '../../../jobs/upsert/upsert-history.js';
import { createLogger } from '../../../src/observability/logger.js';
import { stateKeys } from '../../../src/pipeline/keys.js';
import { Ledger } from '../../../src/pipeline/ledger.js';
import { RecordHistory } from '../../../src/pipeline/record-history.js';
import { UpsertState } from '../../../src/pipeline/upsert-state.js';
import { stateConnection } from '../../../src/redis.js';
import { type RestartableRedis, restartableRedis } from '../../support/restartable-redis.js';
import { until } from '../../support/until.js';
import { connect, dropPrefix, testPrefix } from '../../support/redis.js';

/**
 * A record written to billing just before Redis went away: SETTLE reached Redis (the write is in the
 * ledger), the history's append did not. The test's own redis-server is stopped right after SETTLE
 * answers, then started again.
 */
describe('given a job that settles a write just before Redis goes away', () => {
  let redis: RestartableRedis;
  beforeAll(async () => {
    redis = await restartableRedis('upsert-history');
    await redis.start();
  });
  afterAll(() => redis?.close());

  it("when the history's append fails, then the warning names the record, and its written entry is in the history once Redis is back", async () => {
    const client = stateConnection(redis.url);
    client.on('error', () => {});
    const keys = stateKeys('upsert-history');
    const state = new UpsertState(client, keys);
    const ledger = new Ledger(client, keys);
    const history = new RecordHistory(client, keys, { perRecord: 10, days: 90 });
    const lines: Array<{ level: number; msg: string; erpIds?: string[] }> = [];
    const log = createLogger({
      level: 'info',
      format: 'json',
      destination: { write: (s: string) => void lines.push(JSON.parse(s)) },
    });
    try {
      const owner = 'job-before-outage';
      expect((await state.beginMany('zoho-in', 'invoices', [{ erpId: 'inv-7' }], 60_000, owner))[0]!.locked).toBe(true);
      // Redis goes away the moment SETTLE has answered: the write is durable, nothing after it reaches Redis.
      const goingAway = {
        settleMany: async (...args: Parameters<UpsertState['settleMany']>) => {
          const written = await state.settleMany(...args);
          await redis.stop();
          return written;
        },
      };
      const payload = { erpId: 'inv-7', version: '2026-11-30T10:00:00.000Z', hash: 'a'.repeat(64) } as UpsertJobData;
      const settling = settlingWithHistory(
        { upsertState: goingAway, ledger, recordHistory: history },
        { id: owner, opts: { priority: 1 } },
        [payload],
        log,
      );
      const entry = {
        hash: payload.hash,
        version: payload.version,
        billingId: 'b-7',
        writtenAt: Date.now(),
        jobId: owner,
      };
      expect(
        await settling.settleMany(
          'zoho-in',
          'invoices',
          [{ erpId: 'inv-7', settlement: { outcome: 'written', entry } }],
          owner,
          owner,
        ),
      ).toEqual([true]);

      const warned = lines.filter((l) => l.level === 40);
      expect(warned).toHaveLength(1);
      expect(warned[0]!.erpIds).toEqual(['inv-7']);

      await redis.start();
      const told = await until(
        'the written entry in the history',
        async () => (await history.list('zoho-in', 'invoices', 'inv-7')).find((e) => e.outcome === 'written'),
        30_000,
        50,
      );
      expect(told).toMatchObject({ outcome: 'written', version: payload.version, billingId: 'b-7', by: owner });
      expect((await ledger.get('zoho-in', 'invoices', 'inv-7'))?.billingId).toBe('b-7');
    } finally {
      await redis.start();
      await client.quit();
    }
  }, 60_000);
});

describe('given a write whose job stopped before it could tell the history (Redis gone, then the worker stopped)', () => {
  it('when the same job runs again and finds its own write in the ledger (unchanged), then the history gets that write, once, at the time the ledger holds', async () => {
    const client = connect();
    const prefix = testPrefix('upsert-history-owed');
    const keys = stateKeys(prefix);
    const state = new UpsertState(client, keys);
    const ledger = new Ledger(client, keys);
    const history = new RecordHistory(client, keys, { perRecord: 10, days: 90 });
    const log = createLogger({ level: 'silent', format: 'json' });
    try {
      const job = 'job-killed-after-settle';
      const payload = { erpId: 'inv-9', version: '2026-11-30T10:00:00.000Z', hash: 'b'.repeat(64) } as UpsertJobData;
      const writtenAt = Date.now() - 60_000;
      // The first run: SETTLE wrote the ledger (naming the job); the history was never told.
      await state.beginMany('zoho-in', 'invoices', [{ erpId: 'inv-9' }], 60_000, job);
      const entry = { hash: payload.hash, version: payload.version, billingId: 'b-9', writtenAt, jobId: job };
      await state.settleMany(
        'zoho-in',
        'invoices',
        [{ erpId: 'inv-9', settlement: { outcome: 'written', entry } }],
        job,
        job,
      );
      expect(await history.list('zoho-in', 'invoices', 'inv-9')).toEqual([]);

      // The job runs again (taken back as stalled): billing holds its content, so the record is unchanged.
      const rerun = async () => {
        await state.beginMany('zoho-in', 'invoices', [{ erpId: 'inv-9' }], 60_000, job);
        const settling = settlingWithHistory(
          { upsertState: state, ledger, recordHistory: history },
          { id: job, opts: { priority: 1 } },
          [payload],
          log,
        );
        await settling.settleMany(
          'zoho-in',
          'invoices',
          [{ erpId: 'inv-9', settlement: { outcome: 'unchanged', version: payload.version } }],
          job,
          job,
        );
      };
      await rerun();
      await rerun();

      const told = await history.list('zoho-in', 'invoices', 'inv-9');
      expect(told.filter((e) => e.outcome === 'written')).toEqual([
        expect.objectContaining({
          outcome: 'written',
          at: writtenAt,
          by: job,
          version: payload.version,
          billingId: 'b-9',
        }),
      ]);
      expect(told.filter((e) => e.outcome === 'unchanged')).toHaveLength(2);
    } finally {
      await dropPrefix(client, prefix);
      await client.quit();
    }
  });
});
