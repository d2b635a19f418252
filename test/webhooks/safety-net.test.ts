import type { Job } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { skipWhileWebhooksCover } from '../../jobs/admission/safety-net-schedule.js';
import { createLogger } from '../../src/observability/logger.js';
import { stateKeys } from '../../src/pipeline/keys.js';
import { SyncStatus } from '../../src/pipeline/sync-status.js';
import { WebhookEvents } from '../../src/pipeline/webhook-events.js';
import { MISSED_THRESHOLD, WebhookHealth } from '../../src/pipeline/webhook-health.js';
import { webhooksView } from '../../src/webhooks/webhook-status.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

/**
 * Polling as the safety net: a connection whose webhooks deliver is pulled every
 * `schedule.withWebhooksEverySeconds`; safety-net pulls that keep finding changes no delivery announced
 * put it back on the short schedule, and `connections`/`status` say so.
 */
const redis = connect();
const prefix = testPrefix('safety-net');
const keys = stateKeys(prefix);
const health = new WebhookHealth(redis, keys);
const events = new WebhookEvents(redis, keys);
const syncStatus = new SyncStatus(redis, keys);
afterAll(async () => {
  await dropPrefix(redis, prefix);
  redis.disconnect();
});

const connection = (id: string, withWebhooks = true) => ({
  id,
  webhooks: withWebhooks ? { secret: 'a-webhook-secret-of-at-least-32-characters' } : undefined,
  schedule: { everySeconds: 300, withWebhooksEverySeconds: 21_600 },
});
const deliver = (conn: string, id: string, now = Date.now()) =>
  events.record(conn, 'invoices', [{ id, op: 'change', at: new Date(now).toISOString() }], 3600_000, now);

describe('webhook health', () => {
  it('given webhooks configured but no delivery yet, then the connection polls on its short schedule and says why', async () => {
    expect(await webhooksView(health, connection('fresh'))).toMatchObject({
      mode: 'polling',
      reason: 'no delivery received yet',
      pullEverySeconds: 300,
    });
    expect(await webhooksView(health, connection('fresh', false))).toBeNull();
  });

  it(`given deliveries, when safety-net pulls keep finding unannounced changes up to ${MISSED_THRESHOLD}, then it goes back to the short schedule; a clean pull after new deliveries restores it`, async () => {
    const t = Date.now();
    await deliver('c1', 'a', t - 10_000);
    expect(await webhooksView(health, connection('c1'))).toMatchObject({ mode: 'webhooks', pullEverySeconds: 21_600 });
    await health.noteSafetyNetPull('c1', MISSED_THRESHOLD - 1, t - 6_000);
    expect((await health.read('c1')).healthy).toBe(true);
    const degraded = await health.noteSafetyNetPull('c1', 1, t - 5_000);
    expect(degraded).toMatchObject({ healthy: false, missed: MISSED_THRESHOLD });
    const view = await webhooksView(health, connection('c1'));
    expect(view).toMatchObject({ mode: 'polling', pullEverySeconds: 300 });
    expect(view?.reason).toMatch(/missed 10 change\(s\).*short schedule/);
    // A clean pull with no delivery since: still degraded (deliveries may have stopped).
    expect((await health.noteSafetyNetPull('c1', 0, t - 4_000)).healthy).toBe(false);
    await deliver('c1', 'b', t);
    expect((await health.noteSafetyNetPull('c1', 0, t)).healthy).toBe(true);
  });

  it('given a miss now and then with clean pulls between, then the streak restarts each time and the connection stays on webhooks', async () => {
    await deliver('c2', 'a');
    for (let i = 0; i < 3 * MISSED_THRESHOLD; i++) {
      await health.noteSafetyNetPull('c2', 1);
      await health.noteSafetyNetPull('c2', 0);
    }
    expect((await health.read('c2')).healthy).toBe(true);
  });

  it('given records checked against what deliveries announced, then only the unannounced ones come back', async () => {
    await deliver('c3', 'told');
    expect(await events.unannounced('c3', 'invoices', ['told', 'untold'])).toEqual(['untold']);
    expect(await events.unannounced('c3', 'customers', ['told'])).toEqual(['told']);
  });
});

describe('the safety-net schedule', () => {
  const rt = {
    config: { connections: [connection('s1'), connection('s2', false)] as never },
    logger: createLogger({ level: 'silent', format: 'json' }),
    webhookHealth: health,
    syncStatus,
  };
  const ran: string[] = [];
  const processor = skipWhileWebhooksCover(rt, async (job) => {
    ran.push(String(job.id));
    return { pulled: 0 };
  });
  const job = (id: string, data: Record<string, unknown>, scheduled = true) =>
    ({ id, data, repeatJobKey: scheduled ? 'pull-x' : undefined }) as unknown as Job;

  it('given healthy webhooks and a pull that succeeded less than withWebhooksEverySeconds ago, then a scheduled pull is skipped; a requested one, a webhook read or a connection without webhooks runs', async () => {
    await deliver('s1', 'a');
    await syncStatus.recordSuccess('s1', 'invoices', Date.now() - 600_000);
    await syncStatus.recordSuccess('s2', 'invoices', Date.now() - 600_000);
    expect(await processor(job('1', { connectionId: 's1', entity: 'invoices' }))).toEqual({
      skipped: 'webhooks healthy',
    });
    await processor(job('2', { connectionId: 's1', entity: 'invoices' }, false));
    await processor(job('3', { connectionId: 's1', entity: 'invoices', webhook: { batch: 0 } }));
    await processor(job('4', { connectionId: 's2', entity: 'invoices' }));
    expect(ran).toEqual(['2', '3', '4']);
  });

  it('given the last success is about withWebhooksEverySeconds old, or webhooks degraded, then the scheduled pull runs', async () => {
    ran.length = 0;
    await syncStatus.recordSuccess('s1', 'invoices', Date.now() - 21_500_000);
    await processor(job('5', { connectionId: 's1', entity: 'invoices' }));
    await syncStatus.recordSuccess('s1', 'invoices', Date.now());
    await health.noteSafetyNetPull('s1', MISSED_THRESHOLD);
    await processor(job('6', { connectionId: 's1', entity: 'invoices' }));
    expect(ran).toEqual(['5', '6']);
  });
});
