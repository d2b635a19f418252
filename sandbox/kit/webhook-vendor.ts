import type { RecordedChange } from './change-feed.js';
import type { SeededRandom } from './seeded-random.js';
import type { WebhookSettings } from './webhook-settings.js';

/** One HTTP POST the sender makes: the path under the receiver's URL, its headers and the exact body signed. */
export interface WebhookDelivery {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Events it announces (0 for a handshake). */
  events: number;
}

/** A handshake request and the status the receiver must answer (Xero's intent to receive). */
export interface HandshakeStep {
  delivery: WebhookDelivery;
  expect: number;
}

export interface PayloadContext {
  settings: WebhookSettings & { secret: string };
  /** Ids and entropy in payloads (a fork of the seeded generator, apart from the fault decisions). */
  random: SeededRandom;
}

/** How one vendor delivers webhooks; the sender does the timing, faults and retries. */
export interface WebhookVendor {
  name: string;
  /** The changes of one window as the vendor's deliveries: batched where it batches, signed as it signs. */
  deliveries(changes: readonly RecordedChange[], ctx: PayloadContext): WebhookDelivery[];
  /** The vendor's retry schedule after a failed attempt (ms before each next attempt). */
  retryDelaysMs: readonly number[];
  /** After the schedule: keep retrying at its last interval (Intuit) or stop. */
  repeatLastDelay: boolean;
  /** Later deliveries wait behind an unacknowledged one (Intuit). */
  ordered: boolean;
  /** What happens when the retries run out: the delivery is lost, or the whole subscription is disabled (Xero). */
  onExhausted: 'drop' | 'disable';
  /** The receiver's deadline for an answer. */
  timeoutMs: number;
  /** Requests a subscription must answer correctly before events flow (Xero's intent to receive). */
  handshake?(ctx: PayloadContext): HandshakeStep[];
  /** Settings the vendor needs besides url and secret; a message naming what is missing or wrong, or undefined. */
  check?(settings: WebhookSettings): string | undefined;
}
