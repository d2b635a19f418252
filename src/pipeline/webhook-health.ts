import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';
import { LuaScript } from './lua-script.js';

const NOTE = LuaScript.load('note-safety-net-pull-1');

/**
 * Changes safety-net pulls may find that no delivery announced, over consecutive pulls that find some,
 * before the connection goes back to its short schedule. A dropped delivery now and then is what the
 * safety net is for; this many means deliveries stopped (a disabled subscription, a wrong key).
 */
export const MISSED_THRESHOLD = 10;

export interface WebhookHealthState {
  /** ms since epoch: the first and the last delivery accepted for the connection. */
  firstDelivery?: number;
  lastDelivery?: number;
  /** Changes missed by deliveries over the current streak of safety-net pulls that found some. */
  missed: number;
  /** Since when (ms) the connection is back on its short schedule, when it is. */
  degradedSince?: number;
  /**
   * Webhooks carry the connection's changes: a delivery was accepted for it and it is not degraded. Its
   * incremental pulls then run every `schedule.withWebhooksEverySeconds`, as a safety net.
   */
  healthy: boolean;
}

/** Whether a connection's webhook deliveries can be relied on, shared by every process. */
export class WebhookHealth {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  async read(connection: string): Promise<WebhookHealthState> {
    const h = await this.redis.hgetall(this.keys.webhookHealth(connection));
    const n = (v: string | undefined) => (v && Number(v) > 0 ? Number(v) : undefined);
    const state = {
      firstDelivery: n(h.firstDelivery),
      lastDelivery: n(h.lastDelivery),
      missed: Number(h.missed ?? 0),
      degradedSince: n(h.degradedSince),
    };
    return { ...state, healthy: state.firstDelivery !== undefined && state.degradedSince === undefined };
  }

  /** A safety-net pull ended having found `missed` changes no delivery announced; returns the state after it. */
  async noteSafetyNetPull(connection: string, missed: number, now = Date.now()): Promise<WebhookHealthState> {
    await NOTE.run(this.redis, [this.keys.webhookHealth(connection)], [now, missed, MISSED_THRESHOLD]);
    return this.read(connection);
  }
}
