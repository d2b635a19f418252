import { afterAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/pipeline/audit-log.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

/** The audit log store on a real Redis: newest first, paged, filtered by connection, trimmed by age. */
describe('AuditLog', () => {
  const prefix = testPrefix('audit-log');
  const redis = connect();
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given entries 401 and 399 days old, when an action is appended, then the one past the 400-day retention is gone and the other stays, whatever the count', async () => {
    const log = new AuditLog(redis, `${prefix}-age`);
    expect(log.retentionDays).toBe(400);
    const day = 86_400_000;
    const old = (days: number, detail: string) =>
      JSON.stringify({
        who: 'ops',
        action: 'connections.pause',
        outcome: 'ok',
        status: 200,
        detail,
        at: Date.now() - days * day,
      });
    // Written as they would have been then: the stream id is the time of the append.
    await redis.xadd(log.key, `${Date.now() - 401 * day}-0`, 'e', old(401, 'too old'));
    await redis.xadd(log.key, `${Date.now() - 399 * day}-0`, 'e', old(399, 'kept'));
    await log.append({ who: 'ops', action: 'connections.resume', outcome: 'ok', status: 200, detail: 'now' });
    const entries = await log.list({ limit: 10 });
    expect(entries.map((e) => e.detail)).toEqual(['now', 'kept']);
  });

  it('given a shorter retention, then entries older than it go at the next append', async () => {
    const log = new AuditLog(redis, `${prefix}-short`, { retentionDays: 7 });
    await redis.xadd(
      log.key,
      `${Date.now() - 8 * 86_400_000}-0`,
      'e',
      JSON.stringify({ who: 'ops', detail: '8 days' }),
    );
    await redis.xadd(
      log.key,
      `${Date.now() - 6 * 86_400_000}-0`,
      'e',
      JSON.stringify({ who: 'ops', detail: '6 days' }),
    );
    await log.append({ who: 'ops', action: 'connections.pause', outcome: 'ok', status: 200, detail: 'now' });
    expect((await log.list({ limit: 10 })).map((e) => e.detail)).toEqual(['now', '6 days']);
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
