import { describe, expect, it } from 'vitest';
import { webhooks } from '../../../connectors/xero/webhooks.js';
import { MalformedDeliveryError, type ParsedDelivery } from '../../../src/webhooks/webhook-event.js';
import { inHostZone } from '../../support/host-zone.js';

/**
 * The time of a Xero webhook event. Xero documents `eventDateUtc` as UTC and prints it without an offset
 * (`2017-06-21T01:15:39.902`, https://developer.xero.com/documentation/guides/webhooks/overview/), so it is
 * read as UTC whatever the worker's zone: read as host time, an Indian company's worker (Asia/Kolkata)
 * dated every event 5.5 hours early, and a second edit made seconds after the first was dropped as no
 * newer than the version the ledger held.
 */
const TENANT = '0f5bd8c8-5f2d-4c1e-9d7b-6a0e8c1b2f3a';
const body = (eventDateUtc: unknown) =>
  Buffer.from(
    JSON.stringify({
      events: [
        {
          resourceUrl: 'https://api.xero.com/api.xro/2.0/Invoices/inv-1',
          resourceId: 'inv-1',
          eventDateUtc,
          eventType: 'UPDATE',
          eventCategory: 'INVOICE',
          tenantId: TENANT,
          tenantType: 'ORGANISATION',
        },
      ],
      firstEventSequence: 1,
      lastEventSequence: 1,
      entropy: 'S0m3r4Nd0mt3xt',
    }),
  );
const atOf = (parsed: ParsedDelivery) => (parsed.kind === 'events' ? parsed.events[0]?.at : undefined);
const parse = (eventDateUtc: unknown) => webhooks.parse(body(eventDateUtc), new URLSearchParams());
function refusal(f: () => unknown): Error {
  try {
    f();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the delivery to be refused');
}

describe.each(['Asia/Kolkata', 'America/New_York', 'UTC'])('on a worker whose zone is %s', (zone) => {
  inHostZone(zone);

  it('given Xero’s documented eventDateUtc without an offset, when the delivery is parsed, then the event is dated at that UTC instant', () => {
    expect(atOf(parse('2017-06-21T01:15:39.902'))).toBe('2017-06-21T01:15:39.902Z');
  });

  it('given an event just after UTC midnight, then its instant stays on that UTC day', () => {
    expect(atOf(parse('2026-03-08T00:00:01'))).toBe('2026-03-08T00:00:01.000Z');
  });

  it('given an event in the hour New York springs forward (2026-03-08 07:00 UTC), then it is read as UTC, not as a missing local hour', () => {
    expect(atOf(parse('2026-03-08T07:30:00'))).toBe('2026-03-08T07:30:00.000Z');
  });

  it('given a ledger version from an edit at 10:00:00 UTC and a second edit announced 3 s later, then the event is newer than the ledger', () => {
    const ledgerVersion = '2026-11-27T10:00:00.000Z';
    expect(atOf(parse('2026-11-27T10:00:03.000'))! > ledgerVersion).toBe(true);
  });

  it('given an eventDateUtc that carries an offset, then the offset places it', () => {
    expect(atOf(parse('2026-11-27T15:30:00+05:30'))).toBe('2026-11-27T10:00:00.000Z');
  });
});

describe('an eventDateUtc that cannot be placed', () => {
  it.each([['21/06/2017 01:15'], ['2017-06-31T01:15:39'], ['yesterday']])(
    'given %j, when parsed, then the delivery is refused naming eventDateUtc and not quoting the value',
    (value) => {
      const refused = refusal(() => parse(value));
      expect(refused).toBeInstanceOf(MalformedDeliveryError);
      expect(refused.message).toMatch(/^eventDateUtc is not a time/);
      expect(refused.message).not.toContain(value);
    },
  );

  it('given no eventDateUtc, then the event has no time (it is read, not compared with the ledger)', () => {
    expect(atOf(parse(undefined))).toBeUndefined();
  });
});
