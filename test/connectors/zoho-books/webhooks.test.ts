import { describe, expect, it } from 'vitest';
import { webhooks } from '../../../connectors/zoho-books/webhooks.js';
import { MalformedDeliveryError, type ParsedDelivery } from '../../../src/webhooks/webhook-event.js';
import { inHostZone } from '../../support/host-zone.js';

/**
 * The time of a Zoho Books webhook: the record's `last_modified_time` (credit notes: `updated_time`) in the
 * organisation's offset without a colon (`2026-11-27T15:30:00+0530`,
 * https://www.zoho.com/books/api/v3/invoices/), placed by that offset. A value without one cannot be placed
 * and refuses the delivery, naming the field.
 */
const query = new URLSearchParams({ module: 'invoices', event: 'edited' });
const parse = (fields: Record<string, unknown>) =>
  webhooks.parse(Buffer.from(JSON.stringify({ invoice: { invoice_id: '4600000000000123', ...fields } })), query);
const atOf = (parsed: ParsedDelivery) => (parsed.kind === 'events' ? parsed.events[0]?.at : undefined);

describe.each(['Asia/Kolkata', 'America/New_York'])('on a worker whose zone is %s', (zone) => {
  inHostZone(zone);

  it('given an edit at 00:10 in Kolkata (the previous UTC day), then the event is dated at that instant', () => {
    expect(atOf(parse({ last_modified_time: '2026-11-27T00:10:00+0530' }))).toBe('2026-11-26T18:40:00.000Z');
  });

  it('given only updated_time, then it dates the event', () => {
    expect(atOf(parse({ updated_time: '2026-03-08T01:59:59-0500' }))).toBe('2026-03-08T06:59:59.000Z');
  });

  it.each([['last_modified_time'], ['updated_time']])(
    'given a %s without an offset, then the delivery is refused naming it',
    (field) => {
      expect(() => parse({ [field]: '2026-11-27T15:30:00' })).toThrow(MalformedDeliveryError);
      expect(() => parse({ [field]: '2026-11-27T15:30:00' })).toThrow(new RegExp(`^${field} is not a time`));
    },
  );
});
