import { createHmac } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { connectorFor, validateSettings } from '../../connectors/registry.js';
import { webhookTargets } from '../../app/webhook-ingress.js';
import { jobOptions, QUEUES } from '../../jobs/catalog.js';
import { enqueueAnnounced } from '../../jobs/pull/enqueue-announced.js';
import { type AppConfig, parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { createMetrics, type Metrics } from '../../src/observability/metrics.js';
import { stateKeys, type StateKeys } from '../../src/pipeline/keys.js';
import { WebhookEvents } from '../../src/pipeline/webhook-events.js';
import { WebhookHealth } from '../../src/pipeline/webhook-health.js';
import { createRedisClient } from '../../src/redis.js';
import {
  startWebhookListener,
  type WebhookListener,
  type WebhookListenerOptions,
} from '../../src/webhooks/webhook-listener.js';
import { testPrefix } from '../support/redis.js';

/** Two Xero organisations on one app (one key), a third on another app, a QuickBooks realm, a Zoho Books organisation. */
export const XERO_APP_KEY = 'xero-app-one-webhook-key-for-the-tests';
export const XERO_OTHER_KEY = 'xero-app-two-webhook-key-for-the-tests';
export const QBO_TOKEN = 'intuit-verifier-token-for-the-tests';
export const ZOHO_SECRET = 'zoho-workflow-secret-for-the-listener-tests';
export const TENANT_A = '11111111-1111-4111-8111-111111111111';
export const TENANT_B = '22222222-2222-4222-8222-222222222222';
export const TENANT_C = '33333333-3333-4333-8333-333333333333';
export const REALM = '9341453012345678';

const oauth = { clientId: 'id', clientSecret: 'secret' };

export function listenerConfig(prefix: string, redisUrl: string, maxBodyBytes = 4096): AppConfig {
  return parseConfig(
    {
      billing: { url: 'http://127.0.0.1:1', apiKey: 'k' },
      redis: { url: redisUrl, prefix },
      webhooks: { port: 0, host: '127.0.0.1', maxBodyBytes, coalesceMs: 60_000 },
      connections: [
        {
          id: 'xero-a',
          system: 'xero',
          originSource: 'EXTERNAL_SYSTEM_A',
          settings: { ...oauth, tenantId: TENANT_A },
          webhooks: { secret: XERO_APP_KEY },
        },
        {
          id: 'xero-b',
          system: 'xero',
          originSource: 'EXTERNAL_SYSTEM_A',
          settings: { ...oauth, tenantId: TENANT_B },
          webhooks: { secret: XERO_APP_KEY },
        },
        {
          id: 'xero-c',
          system: 'xero',
          originSource: 'EXTERNAL_SYSTEM_A',
          settings: { ...oauth, tenantId: TENANT_C },
          webhooks: { secret: XERO_OTHER_KEY },
        },
        {
          id: 'qbo',
          system: 'quickbooks',
          originSource: 'EXTERNAL_SYSTEM_B',
          settings: { ...oauth, realmId: REALM },
          webhooks: { secret: QBO_TOKEN },
        },
        {
          id: 'zoho',
          system: 'zoho-books',
          originSource: 'EXTERNAL_SYSTEM_C',
          settings: { ...oauth, organizationId: '60000000001' },
          webhooks: { secret: ZOHO_SECRET },
        },
        {
          id: 'zoho-quiet',
          system: 'zoho-books',
          originSource: 'EXTERNAL_SYSTEM_C',
          settings: { ...oauth, organizationId: '60000000002' },
        },
      ],
    },
    {},
    validateSettings,
    'webhook listener test config',
  );
}

export interface ListenerHarness {
  url: string;
  config: AppConfig;
  redis: Redis;
  keys: StateKeys;
  prefix: string;
  events: WebhookEvents;
  health: WebhookHealth;
  pull: Queue;
  metrics: Metrics;
  listener: WebhookListener;
  /** The listener's log lines (JSON), at warn and above. */
  lines: string[];
  /** POSTs a body (string or object, sent as JSON) to a path with headers. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; text: string }>;
  /** A delivery's count by system and result. */
  count(system: string, result: string): Promise<number>;
  close(): Promise<void>;
}

export const sign = (body: string | Buffer, key: string): string =>
  createHmac('sha256', key).update(body).digest('base64');

/** The webhook listener on loopback, its events made durable in a real Redis, its reads enqueued on a real pull queue. */
export async function listenerHarness(
  redisUrl: string,
  maxBodyBytes?: number,
  limits: Pick<WebhookListenerOptions, 'maxUnverifiedBodies' | 'refusalLogEveryMs'> = {},
): Promise<ListenerHarness> {
  const prefix = testPrefix('webhooks');
  const config = listenerConfig(prefix, redisUrl, maxBodyBytes);
  // Fails fast while Redis does not answer: the listener's own deadline decides the 503.
  const redis = createRedisClient(redisUrl, { maxRetriesPerRequest: 1 });
  const keys = stateKeys(prefix);
  const events = new WebhookEvents(redis, keys);
  const health = new WebhookHealth(redis, keys);
  const pull = new Queue(QUEUES.pull, { connection: redis, prefix });
  const metrics = createMetrics();
  const byId = new Map(config.connections.map((c) => [c.id, c.system]));
  const lines: string[] = [];
  const listener = await startWebhookListener({
    port: 0,
    host: '127.0.0.1',
    maxBodyBytes: config.webhooks!.maxBodyBytes,
    targets: () => webhookTargets(config, (id) => connectorFor(byId.get(id)!)),
    accept: (conn, list) =>
      enqueueAnnounced({ config, webhookEvents: events, queues: { pull }, options: jobOptions(config) }, conn, list),
    metrics,
    logger: createLogger({ level: 'warn', format: 'json', destination: { write: (s: string) => void lines.push(s) } }),
    ...limits,
  });
  return {
    url: listener.url,
    config,
    redis,
    keys,
    prefix,
    events,
    health,
    pull,
    metrics,
    listener,
    lines,
    async post(path, body, headers = {}) {
      const res = await fetch(`${listener.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    },
    async count(system, result) {
      const m = await metrics.webhookDeliveries.get();
      return m.values.find((v) => v.labels.system === system && v.labels.result === result)?.value ?? 0;
    },
    async close() {
      await listener.close();
      await pull.close();
    },
  };
}
