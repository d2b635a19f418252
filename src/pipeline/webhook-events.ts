import type { Redis } from 'ioredis';
import type { EntityName } from '../connector/entities.js';
import type { WebhookEvent, WebhookOp } from '../webhooks/webhook-event.js';
import type { StateKeys } from './keys.js';
import { LuaScript } from './lua-script.js';

const RECORD = LuaScript.load('record-webhook-events-5');
const CLAIM = LuaScript.load('claim-webhook-events-3');

/** Events already received are remembered this long: Xero retries a delivery for up to 24 h. */
export const SEEN_RETENTION_MS = 48 * 3600_000;
/** A read's claimed events outlive a read that ended failed for good this long (the safety net reads them anyway). */
const CLAIMED_TTL_MS = 7 * 24 * 3600_000;

/** One stream's events, as recorded: what a targeted read takes. */
export interface PendingEvent {
  id: string;
  op: WebhookOp;
  /** The vendor's time of the change (UTC ISO), or undefined. */
  at?: string;
}

export interface RecordedEvents {
  /** The batch whose targeted read takes these events (its job id names it). */
  batch: number;
  /** Events not received before (0: the whole delivery was a duplicate). */
  fresh: number;
  /** Ids waiting for the batch's read: 0 means a read already took them. */
  pending: number;
}

/**
 * Webhook events between a delivery and the targeted read that acts on them. A delivery's events are
 * durable (one Lua call per stream) before the listener answers 2xx; events of one stream arriving before
 * the read starts share its batch, so N events become one read (`webhooks.coalesceMs`). The read takes its
 * batch atomically (later events make the next batch) and keeps it until it ends, so a retry of the read
 * acts on the same events. Also kept: which records deliveries announced (what the safety-net pull
 * checks its finds against) and which events were already received (a replay is a duplicate).
 */
export class WebhookEvents {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  /** Records events of one stream; `announcedRetentionMs`: how long an announcement counts for the safety net. */
  async record(
    connection: string,
    entity: EntityName,
    events: ReadonlyArray<Pick<WebhookEvent, 'id' | 'op' | 'at'>>,
    announcedRetentionMs: number,
    now = Date.now(),
  ): Promise<RecordedEvents> {
    const k = this.keys;
    const args: Array<string | number> = [now, announcedRetentionMs, SEEN_RETENTION_MS, entity];
    for (const e of events) args.push(e.id, e.op, e.at ?? '');
    const [batch, fresh, pending] = (await RECORD.run(
      this.redis,
      [
        k.webhookPending(connection, entity),
        k.webhookBatch(connection, entity),
        k.webhookAnnounced(connection),
        k.webhookSeen(connection),
        k.webhookHealth(connection),
      ],
      args,
    )) as [number, number, number];
    return { batch, fresh, pending };
  }

  /** The events of `batch` for its read: taken once, given again to the same read's retries. */
  async claim(connection: string, entity: EntityName, batch: number): Promise<PendingEvent[]> {
    const k = this.keys;
    const flat = (await CLAIM.run(
      this.redis,
      [
        k.webhookPending(connection, entity),
        k.webhookBatch(connection, entity),
        k.webhookClaimed(connection, entity, batch),
      ],
      [batch, CLAIMED_TTL_MS],
    )) as string[];
    const events: PendingEvent[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const v = JSON.parse(flat[i + 1]!) as { op: WebhookOp; at: string };
      events.push({ id: flat[i]!, op: v.op, ...(v.at ? { at: v.at } : {}) });
    }
    return events;
  }

  /** The read of `batch` is done: its events are forgotten. */
  async finish(connection: string, entity: EntityName, batch: number): Promise<void> {
    await this.redis.del(this.keys.webhookClaimed(connection, entity, batch));
  }

  /** Of these ids, the ones no delivery announced within the retention. */
  async unannounced(connection: string, entity: EntityName, ids: readonly string[]): Promise<string[]> {
    if (!ids.length) return [];
    const scores = (await this.redis.zmscore(
      this.keys.webhookAnnounced(connection),
      ...ids.map((id) => `${entity}|${id}`),
    )) as Array<string | null>;
    return ids.filter((_, i) => scores[i] === null);
  }
}
