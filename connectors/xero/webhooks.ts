import { z } from 'zod';
import type { EntityName } from '../../src/connector/entities.js';
import {
  type ConnectorWebhooks,
  deliveryJson,
  MalformedDeliveryError,
  type WebhookEvent,
} from '../../src/webhooks/webhook-event.js';
import { headerValue, hmacSha256Base64Matches, isoInstant } from '../../src/webhooks/verify-signature.js';
import type { Settings } from './settings.js';

/**
 * Xero webhooks (connectors/xero/README.md, "Webhooks"): one delivery carries events of every organisation
 * connected to the app, signed with the app's webhook key as base64 HMAC-SHA256 of the raw body in
 * `x-xero-signature` (https://developer.xero.com/documentation/webhooks/configuring-your-server).
 * A correctly signed delivery with no events (`[]`, or `null` as some deliveries send it) is the
 * intent-to-receive check: 200, empty body.
 * Events say CREATE or UPDATE only: a void is an UPDATE, read like any other.
 */
const Event = z.looseObject({
  resourceId: z.string().min(1),
  tenantId: z.string().min(1),
  eventCategory: z.string(),
  eventType: z.string().optional(),
  eventDateUtc: z.string().optional(),
});
// The intent-to-receive has been seen with `"events": null` as well as `[]`: both are no events.
const Delivery = z.looseObject({ events: z.array(z.unknown()).nullable() });

const CATEGORIES: Record<string, EntityName> = {
  INVOICE: 'invoices',
  CREDITNOTE: 'credit-notes',
  CONTACT: 'customers',
};

export const webhooks: ConnectorWebhooks<Settings> = {
  path: 'xero',
  routedBy: 'organisation',
  routeKey: (settings) => settings.tenantId.toLowerCase(),
  verify: (body, headers, key) => hmacSha256Base64Matches(body, headerValue(headers, 'x-xero-signature'), key),
  parse(body) {
    const delivery = Delivery.safeParse(deliveryJson(body));
    if (!delivery.success) throw new MalformedDeliveryError('expected an object with an events array');
    const listed = delivery.data.events ?? [];
    if (listed.length === 0) return { kind: 'intent' };
    const events: WebhookEvent[] = [];
    for (const raw of listed) {
      const e = Event.safeParse(raw);
      if (!e.success) throw new MalformedDeliveryError('an event lacks resourceId, tenantId or eventCategory');
      const entity = CATEGORIES[e.data.eventCategory.toUpperCase()];
      // Categories we do not sync (SUBSCRIPTION, …) are acknowledged and left.
      if (!entity) continue;
      const at = isoInstant(e.data.eventDateUtc, 'eventDateUtc', 'utc');
      events.push({
        routeKey: e.data.tenantId.toLowerCase(),
        entity,
        id: e.data.resourceId,
        op: 'change',
        ...(at ? { at } : {}),
      });
    }
    return { kind: 'events', events };
  },
};
