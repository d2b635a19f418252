import type { AppConfig } from '../src/config.js';
import type { EntityName } from '../src/connector/entities.js';
import type { Connector } from '../src/connector/types.js';
import { startWebhookListener, type WebhookListener } from '../src/webhooks/webhook-listener.js';
import type { WebhookTarget } from '../src/webhooks/webhook-target.js';
import { enqueueAnnounced } from '../jobs/pull/enqueue-announced.js';
import type { Runtime } from '../jobs/runtime.js';

/**
 * The webhook listener of `erp-sync worker`, when the config has a `webhooks` block (none without it):
 * its targets are the connections with a `webhooks.secret` whose connector takes webhooks, read from
 * the config at each delivery (a reload adds or removes them; the port needs a restart).
 */
export async function startWebhookIngress(rt: Runtime): Promise<WebhookListener | undefined> {
  const w = rt.config.webhooks;
  if (!w) return undefined;
  const listener = await startWebhookListener({
    port: w.port,
    host: w.host,
    maxBodyBytes: w.maxBodyBytes,
    targets: () => webhookTargets(rt.config, (id) => rt.connection(id).connector),
    accept: (connectionId, events) => enqueueAnnounced(rt, connectionId, events),
    metrics: rt.metrics,
    logger: rt.logger.child({ component: 'webhooks' }),
  });
  rt.logger.info(
    { url: listener.url, connections: webhookTargets(rt.config, (id) => rt.connection(id).connector).length },
    'webhook listener started',
  );
  return listener;
}

/** The connections with a `webhooks.secret` whose connector takes webhooks, as the listener routes to them. */
export function webhookTargets(
  config: Pick<AppConfig, 'connections'>,
  connectorOf: (connectionId: string) => Connector<any>,
): WebhookTarget[] {
  const targets: WebhookTarget[] = [];
  for (const c of config.connections) {
    if (!c.webhooks) continue;
    const hooks = connectorOf(c.id).webhooks;
    if (!hooks) continue;
    targets.push({
      connectionId: c.id,
      system: c.system,
      entities: c.entities as EntityName[],
      secret: c.webhooks.secret,
      ...(hooks.routeKey ? { routeKey: hooks.routeKey(c.settings) } : {}),
      webhooks: hooks,
    });
  }
  return targets;
}
