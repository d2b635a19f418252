import type { WebhookEvent } from './webhook-event.js';

/** How far a delivery's time may be ahead of this worker's clock: vendor clocks drift by seconds, not more. */
export const DELIVERY_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * The events with any time beyond now + skew taken away: the one place a delivery's time is admitted, for
 * every vendor. A delivery's time only orders events and skips a read the ledger already covers (a
 * record's version always comes from reading it), but a time in the future would outrank every real
 * change after it (and, taken as a delete's version, freeze the record). An event without a time is read
 * like any other, so nothing is lost by dropping it.
 */
export function withoutFutureTimes(
  events: readonly WebhookEvent[],
  nowMs: number,
): { events: WebhookEvent[]; ignored: number } {
  let ignored = 0;
  const out = events.map((e) => {
    if (e.at === undefined || Date.parse(e.at) <= nowMs + DELIVERY_CLOCK_SKEW_MS) return e;
    ignored++;
    const { at: _future, ...rest } = e;
    return rest;
  });
  return { events: out, ignored };
}
