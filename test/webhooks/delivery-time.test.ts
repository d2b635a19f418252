import { describe, expect, it } from 'vitest';
import { DELIVERY_CLOCK_SKEW_MS, withoutFutureTimes } from '../../src/webhooks/delivery-time.js';
import type { WebhookEvent } from '../../src/webhooks/webhook-event.js';

/** The one place a delivery's time is admitted, for every vendor: never beyond now + the clock skew. */
describe('withoutFutureTimes', () => {
  const now = Date.parse('2026-12-07T12:00:00.000Z');
  const ev = (at?: string): WebhookEvent => ({ entity: 'invoices', id: '1', op: 'delete', ...(at ? { at } : {}) });

  it('given times up to now + the skew, then they are kept as they are', () => {
    const edge = new Date(now + DELIVERY_CLOCK_SKEW_MS).toISOString();
    const { events, ignored } = withoutFutureTimes([ev('2026-12-07T11:59:00.000Z'), ev(edge), ev()], now);
    expect(events).toEqual([ev('2026-12-07T11:59:00.000Z'), ev(edge), ev()]);
    expect(ignored).toBe(0);
  });

  it('given a time beyond now + the skew (a second past it, or 9999-12-31), then the event stays and its time goes, counted', () => {
    const past = new Date(now + DELIVERY_CLOCK_SKEW_MS + 1000).toISOString();
    const { events, ignored } = withoutFutureTimes([ev(past), ev('9999-12-31T23:59:59.000Z')], now);
    expect(events).toEqual([ev(), ev()]);
    expect(ignored).toBe(2);
  });
});
