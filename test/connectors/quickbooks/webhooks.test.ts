import { describe, expect, it } from 'vitest';
import { webhooks } from '../../../connectors/quickbooks/webhooks.js';
import { MalformedDeliveryError, type ParsedDelivery } from '../../../src/webhooks/webhook-event.js';
import { inHostZone } from '../../support/host-zone.js';

/**
 * The time of a QuickBooks Online webhook event: CloudEvents `time` and the older body's `lastUpdated`
 * both carry their offset (https://developer.intuit.com/app/developer/qbo/docs/develop/webhooks), which
 * places them; a value without one is not what Intuit sends and refuses the delivery, naming the field.
 */
const cloudEvent = (time: string) =>
  Buffer.from(
    JSON.stringify([
      { type: 'qbo.invoice.updated.v1', intuitentityid: '130', intuitaccountid: '9341453', time, specversion: '1.0' },
    ]),
  );
const legacy = (lastUpdated: string) =>
  Buffer.from(
    JSON.stringify({
      eventNotifications: [
        {
          realmId: '9341453',
          dataChangeEvent: { entities: [{ name: 'Invoice', id: '130', operation: 'Update', lastUpdated }] },
        },
      ],
    }),
  );
const atOf = (parsed: ParsedDelivery) => (parsed.kind === 'events' ? parsed.events[0]?.at : undefined);
const parse = (body: Buffer) => webhooks.parse(body, new URLSearchParams());

describe.each(['Asia/Kolkata', 'America/New_York'])('on a worker whose zone is %s', (zone) => {
  inHostZone(zone);

  it('given a CloudEvent time in UTC, then the event is dated at it', () => {
    expect(atOf(parse(cloudEvent('2026-11-27T10:00:00.179Z')))).toBe('2026-11-27T10:00:00.179Z');
  });

  it('given a legacy lastUpdated in the company’s offset on the night New York falls back, then the offset places it', () => {
    expect(atOf(parse(legacy('2026-11-01T01:30:00-05:00')))).toBe('2026-11-01T06:30:00.000Z');
    expect(atOf(parse(legacy('2026-11-01T01:30:00-04:00')))).toBe('2026-11-01T05:30:00.000Z');
  });

  it.each([
    ['time', () => cloudEvent('2026-11-27T10:00:00')],
    ['lastUpdated', () => legacy('2026-11-27T10:00:00')],
  ])('given a %s without an offset, then the delivery is refused naming that field', (field, body) => {
    expect(() => parse(body())).toThrow(MalformedDeliveryError);
    expect(() => parse(body())).toThrow(new RegExp(`^${field} is not a time`));
  });
});
