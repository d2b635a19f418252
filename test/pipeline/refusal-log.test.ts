import { afterAll, describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { createMetrics } from '../../src/observability/metrics.js';
import { AuditLog } from '../../src/pipeline/audit-log.js';
import { RefusalLog } from '../../src/pipeline/refusal-log.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

const refused = (who: string, n: number) => ({
  who,
  action: 'connections.pause',
  outcome: 'refused' as const,
  status: 403,
  detail: `#${n}`,
});

/** Refused requests on a real Redis: apart from the action log, counted, bounded, a share per source. */
describe('RefusalLog', () => {
  const prefix = testPrefix('refusal-log');
  const redis = connect();
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given one source refused 25 times in a minute, then 10 are written and all 25 counted, and another source still gets its 10', async () => {
    const metrics = createMetrics(new Registry());
    // One minute throughout, whenever the test runs.
    const minute = Date.now();
    const log = new AuditLog(redis, `${prefix}-share`, {
      refusals: { counter: metrics.apiRefusals, now: () => minute },
    });
    for (let i = 0; i < 25; i++) await log.refusals.record('role', 'noisy-viewer', refused('noisy-viewer', i));
    for (let i = 0; i < 3; i++) await log.refusals.record('sign-in', '192.0.2.7', refused('-', i));
    const entries = await log.refusals.list({ limit: 100 });
    expect(entries.filter((e) => e.who === 'noisy-viewer')).toHaveLength(10);
    expect(entries.filter((e) => e.who === '-')).toHaveLength(3);
    const counted = (await metrics.apiRefusals.get()).values.map((v) => [v.labels.reason, v.labels.kept, v.value]);
    expect(counted).toEqual(
      expect.arrayContaining([
        ['role', 'true', 10],
        ['role', 'false', 15],
        ['sign-in', 'true', 3],
      ]),
    );
    expect(await log.size(), 'the action log is untouched').toBe(0);
  });

  it('given more refusals than its bound, then it keeps about its bound (never far more), newest first', async () => {
    const log = new RefusalLog(redis, `${prefix}-bound`, { maxEntries: 100, perSourcePerMinute: 1_000 });
    for (let i = 0; i < 400; i++) await log.record('role', 'viewer', refused('viewer', i));
    const size = await log.size();
    expect(size).toBeGreaterThanOrEqual(100);
    // MAXLEN ~ trims whole stream nodes (100 entries each by default): within one node of the bound.
    expect(size).toBeLessThanOrEqual(200);
    expect((await log.list({ limit: 1 }))[0]).toMatchObject({ who: 'viewer', detail: '#399' });
  });
});
