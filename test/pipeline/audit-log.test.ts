import { afterAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/pipeline/audit-log.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

/** The audit log store on a real Redis: newest first, paged, filtered by connection, bounded. */
describe('AuditLog', () => {
  const prefix = testPrefix('audit-log');
  const redis = connect();
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given many appends, then it keeps about its bound (never far more), newest first', async () => {
    const log = new AuditLog(redis, `${prefix}-bound`, 100);
    for (let i = 0; i < 400; i++)
      await log.append({
        who: 'ops',
        action: 'connections.pause',
        connection: `c${i % 3}`,
        outcome: 'ok',
        status: 200,
        detail: `#${i}`,
      });
    const size = await log.size();
    expect(size).toBeGreaterThanOrEqual(100);
    // MAXLEN ~ trims whole stream nodes (100 entries each by default): within one node of the bound.
    expect(size).toBeLessThanOrEqual(200);
    const [newest] = await log.list({ limit: 1 });
    expect(newest).toMatchObject({ who: 'ops', detail: '#399', outcome: 'ok' });
    await redis.del(log.key);
  });

  it('given a filter by connection and a cursor, then pages hold only those entries, each page after the last', async () => {
    const log = new AuditLog(redis, `${prefix}-pages`);
    for (let i = 0; i < 30; i++)
      await log.append({
        who: 'ops',
        action: 'quarantine.replay',
        connection: i % 2 ? 'acme' : 'globex',
        outcome: 'ok',
        status: 202,
        detail: `#${i}`,
      });
    await log.append({ who: 'ops', action: 'quarantine.replay-selection', outcome: 'invalid', status: 400 });
    const first = await log.list({ limit: 5, connection: (c) => c === 'acme' });
    expect(first.map((e) => e.detail)).toEqual(['#29', '#27', '#25', '#23', '#21']);
    const second = await log.list({ limit: 5, before: first[4]!.id, connection: (c) => c === 'acme' });
    expect(second.map((e) => e.detail)).toEqual(['#19', '#17', '#15', '#13', '#11']);
    const unfiltered = await log.list({ limit: 2 });
    expect(unfiltered.map((e) => e.outcome)).toEqual(['invalid', 'ok']);
  });
});
