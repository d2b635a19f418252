import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateKeys } from '../../src/pipeline/keys.js';
import { type ReviewEntry, ReviewQueue } from '../../src/pipeline/review-queue.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

const CONNECTION = 'zoho-in';
const V1 = '2026-11-01T10:00:00.000Z';
const V2 = '2026-11-02T10:00:00.000Z';

const entry = (erpId: string, version: string, hash: string, rule = 'all'): Omit<ReviewEntry, 'state'> => ({
  connection: CONNECTION,
  entity: 'invoices',
  erpId,
  version,
  hash,
  rule,
  since: Date.parse(version),
  payload: { erpId, version },
});

describe('the review queue (records held for review before write)', () => {
  const prefix = testPrefix('review-queue');
  const keys = stateKeys(prefix);
  let redis: Redis;
  let queue: ReviewQueue;
  beforeAll(() => {
    redis = connect();
    queue = new ReviewQueue(redis, keys);
  });
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given a held version, when a newer one is held, then it replaces it; an older one never does; the same one keeps its since', async () => {
    expect(await queue.hold(entry('1', V1, 'a'))).toBe('held');
    expect(await queue.hold({ ...entry('1', V1, 'a'), since: 1 })).toBe('kept');
    expect((await queue.get(CONNECTION, 'invoices', '1'))?.since).toBe(Date.parse(V1));
    expect(await queue.hold(entry('1', V2, 'b', 'total-at-least'))).toBe('held');
    expect(await queue.hold(entry('1', V1, 'a'))).toBe('newer');
    expect(await queue.get(CONNECTION, 'invoices', '1')).toMatchObject({
      version: V2,
      hash: 'b',
      rule: 'total-at-least',
    });
    expect(await queue.countByRule(CONNECTION)).toEqual({ 'total-at-least': 1 });
  });

  it('given a rejected version, when the same version and content is held again, then it stays rejected; other content of the same version, or a newer version, is held', async () => {
    const e = (await queue.hold(entry('2', V1, 'c')), (await queue.get(CONNECTION, 'invoices', '2'))!);
    expect(await queue.reject(e, { by: 'carol', note: 'no' })).toBe(true);
    expect(await queue.hold(entry('2', V1, 'c'))).toBe('rejected');
    expect(await queue.countByRule(CONNECTION)).toEqual({ 'total-at-least': 1 });
    expect(await queue.hold(entry('2', V1, 'd'))).toBe('held');
    expect(await queue.get(CONNECTION, 'invoices', '2')).toMatchObject({ state: 'held', hash: 'd' });
    expect(await queue.countByRule(CONNECTION)).toEqual({ 'total-at-least': 1, all: 1 });
  });

  it('given a decision on a version a newer one replaced, then it does nothing; on the version seen, it is done once', async () => {
    const seen = (await queue.get(CONNECTION, 'invoices', '2'))!;
    await queue.hold(entry('2', V2, 'e'));
    expect(await queue.release(seen)).toBe(false);
    expect(await queue.reject(seen, { by: 'x', note: 'y' })).toBe(false);
    const now = (await queue.get(CONNECTION, 'invoices', '2'))!;
    expect(await queue.release(now)).toBe(true);
    expect(await queue.release(now)).toBe(false);
    expect(await queue.get(CONNECTION, 'invoices', '2')).toBeUndefined();
    expect(await queue.countByRule(CONNECTION)).toEqual({ 'total-at-least': 1 });
  });

  it('given an approved version written, when clear runs, then its entry goes unless a newer version is held', async () => {
    expect(await queue.clear(CONNECTION, 'invoices', '1', V1)).toBe(false);
    expect(await queue.clear(CONNECTION, 'invoices', '1', V2)).toBe(true);
    expect(await queue.list(CONNECTION)).toEqual([]);
    expect(await queue.countByRule(CONNECTION)).toEqual({});
  });

  it('given first-sync, then a connection whose ledger is empty is new until its first sync is approved; one with records written is not', async () => {
    expect(await queue.firstSyncOpen('new', ['customers', 'invoices'])).toBe(true);
    await queue.closeFirstSync('new', 'dave');
    expect(await queue.firstSyncOpen('new', ['customers', 'invoices'])).toBe(false);
    await redis.hset(keys.ledger('old', 'invoices'), '7', '{}');
    expect(await queue.firstSyncOpen('old', ['customers', 'invoices'])).toBe(false);
    await redis.hdel(keys.ledger('old', 'invoices'), '7');
    expect(await queue.firstSyncOpen('old', ['customers', 'invoices'])).toBe(false);
  });
});
