import { z } from 'zod';
import type { EntityName } from '../../src/connector/entities.js';
import {
  type ConnectorWebhooks,
  deliveryJson,
  MalformedDeliveryError,
  type WebhookEvent,
  type WebhookOp,
} from '../../src/webhooks/webhook-event.js';
import { headerValue, hmacSha256Base64Matches, isoInstant } from '../../src/webhooks/verify-signature.js';
import type { Settings } from './settings.js';

/**
 * QuickBooks Online webhooks (connectors/quickbooks/README.md, "Webhooks"): one delivery for every company
 * connected to the app, signed with the app's verifier token as base64 HMAC-SHA256 of the raw body in
 * `intuit-signature` (https://developer.intuit.com/app/developer/qbo/docs/develop/webhooks). Two bodies:
 * the CloudEvents array (`type` `qbo.<entity>.<verb>.v1`, `intuitaccountid` = realm, `intuitentityid`),
 * and the older `eventNotifications` (realmId, dataChangeEvent.entities[name, id, operation, lastUpdated]).
 */
const CloudEvent = z.looseObject({
  type: z.string(),
  intuitentityid: z.union([z.string().min(1), z.number()]),
  intuitaccountid: z.union([z.string().min(1), z.number()]),
  time: z.string().optional(),
});
const Legacy = z.looseObject({
  eventNotifications: z.array(
    z.looseObject({
      realmId: z.union([z.string().min(1), z.number()]),
      dataChangeEvent: z
        .looseObject({
          entities: z.array(
            z.looseObject({
              name: z.string(),
              id: z.union([z.string().min(1), z.number()]),
              operation: z.string(),
              lastUpdated: z.string().optional(),
            }),
          ),
        })
        .optional(),
    }),
  ),
});

const ENTITIES: Record<string, EntityName> = { invoice: 'invoices', creditmemo: 'credit-notes', customer: 'customers' };

/** Delete and Void as the pull applies them; Create, Update, Merge, Emailed: read the record. */
function opOf(verb: string): WebhookOp {
  const v = verb.toLowerCase();
  if (v === 'delete' || v === 'deleted') return 'delete';
  if (v === 'void' || v === 'voided') return 'void';
  return 'change';
}

function event(realm: string | number, name: string, id: string | number, verb: string, time?: string, field = 'time') {
  const entity = ENTITIES[name.toLowerCase()];
  if (!entity) return undefined;
  const at = isoInstant(time, field);
  return {
    routeKey: String(realm),
    entity,
    id: String(id),
    op: opOf(verb),
    ...(at ? { at } : {}),
  } satisfies WebhookEvent;
}

export const webhooks: ConnectorWebhooks<Settings> = {
  path: 'quickbooks',
  routedBy: 'organisation',
  routeKey: (settings) => settings.realmId,
  verify: (body, headers, token) => hmacSha256Base64Matches(body, headerValue(headers, 'intuit-signature'), token),
  parse(body) {
    const json = deliveryJson(body);
    const events: WebhookEvent[] = [];
    if (Array.isArray(json)) {
      for (const raw of json) {
        const e = CloudEvent.safeParse(raw);
        if (!e.success) throw new MalformedDeliveryError('a CloudEvent lacks type, intuitentityid or intuitaccountid');
        // qbo.<entity>.<verb>.v<N>
        const [, name, verb] = e.data.type.split('.');
        const ev =
          name && verb ? event(e.data.intuitaccountid, name, e.data.intuitentityid, verb, e.data.time) : undefined;
        if (ev) events.push(ev);
      }
      return { kind: 'events', events };
    }
    const legacy = Legacy.safeParse(json);
    if (!legacy.success) throw new MalformedDeliveryError('expected a CloudEvents array or eventNotifications');
    for (const n of legacy.data.eventNotifications)
      for (const e of n.dataChangeEvent?.entities ?? []) {
        const ev = event(n.realmId, e.name, e.id, e.operation, e.lastUpdated, 'lastUpdated');
        if (ev) events.push(ev);
      }
    return { kind: 'events', events };
  },
};
