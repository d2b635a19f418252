import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { TokenSealer } from '../auth/token-sealer.js';
import { ENTITY_NAMES } from '../connector/entities.js';
import type { StateKeys } from './keys.js';
import { LuaScript } from './lua-script.js';
import { RUN_KINDS, runStream } from './run-history.js';

const PUT = LuaScript.load('put-stored-connection-1');
const VERSION_FIELD = '#version';

/** One stored connection: its entry as written (raw: `${VAR}` references unfilled), who made and changed it, and its removal. */
export const StoredConnection = z.object({
  id: z.string(),
  raw: z.record(z.string(), z.unknown()),
  /** The webhook secret, sealed like the OAuth tokens (never shown again). */
  webhookSecret: z.string().optional(),
  createdAt: z.number(),
  createdBy: z.string(),
  updatedAt: z.number(),
  updatedBy: z.string(),
  /** Set once removed: its state is kept until `removedAt` + the retention, then purged. */
  removedAt: z.number().optional(),
  removedBy: z.string().optional(),
});
export type StoredConnection = z.infer<typeof StoredConnection>;

/**
 * Connections created through the API or the command line, in one Redis hash (one key: one slot on a
 * Cluster): a field per connection id and a version counter every change increments, which each worker
 * polls to pick a change up within seconds (app/stored-connections-watch.ts).
 */
export class StoredConnections {
  private readonly key: string;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly keys: StateKeys,
    private readonly sealer: TokenSealer,
  ) {
    this.key = `${prefix}:stored-connections`;
  }

  /** Increases with every change; 0 before the first. */
  async version(): Promise<number> {
    return Number((await this.redis.hget(this.key, VERSION_FIELD)) ?? 0);
  }

  /** Every stored connection, removed ones included, by id. */
  async list(): Promise<StoredConnection[]> {
    const all = await this.redis.hgetall(this.key);
    return Object.entries(all)
      .filter(([k]) => k !== VERSION_FIELD)
      .map(([, v]) => StoredConnection.parse(JSON.parse(v)))
      .sort((a, b) => a.id.localeCompare(b.id));
  }

  async get(id: string): Promise<StoredConnection | undefined> {
    const v = await this.redis.hget(this.key, id);
    return v === null ? undefined : StoredConnection.parse(JSON.parse(v));
  }

  /** Writes a new connection (or one removed before, in its place). False: one of that id is there. */
  async create(entry: StoredConnection): Promise<boolean> {
    return (await PUT.run(this.redis, [this.key], [entry.id, JSON.stringify(entry), 'create'])) !== 0;
  }

  /** Replaces a connection that is there and not removed (a change, or its removal). False: none such. */
  async replace(entry: StoredConnection): Promise<boolean> {
    return (await PUT.run(this.redis, [this.key], [entry.id, JSON.stringify(entry), 'replace'])) !== 0;
  }

  /** Forgets the entry (after its state was purged). False: none. */
  async forget(id: string): Promise<boolean> {
    return (await PUT.run(this.redis, [this.key], [id, '', 'purge'])) !== 0;
  }

  sealSecret(id: string, secret: string): string {
    return this.sealer.seal(secret, this.context(id));
  }

  openSecret(entry: Pick<StoredConnection, 'id' | 'webhookSecret'>): string | undefined {
    return entry.webhookSecret === undefined
      ? undefined
      : this.sealer.open(entry.webhookSecret, this.context(entry.id));
  }

  private context(id: string): string {
    return `stored-connection:${id}:webhooks.secret`;
  }

  /**
   * Deletes a removed connection's sync state: checkpoints, ledger, quarantine, review, runs, webhook
   * state, quota windows, pause. Records' own histories and source reads expire on their own (history.days,
   * minutes). On a Cluster every one of these keys is in the connection's slot. Returns the keys deleted.
   */
  async purgeState(connection: string): Promise<number> {
    const k = this.keys;
    const perConnection = [
      k.checkpoint,
      k.checkpointRewinds,
      k.quarantine,
      k.customersEnsured,
      k.quotaMinute,
      k.quotaDay,
      k.quotaConcurrency,
      k.quotaAnnouncedWaiting,
      k.quotaHistoryLast,
      k.park,
      k.connectionSlots,
      k.reconcile,
      k.reconcileCycle,
      k.verdicts,
      k.lastSuccess,
      k.lastError,
      k.inFlight,
      k.outage,
      k.sweep,
      k.billingCompany,
      k.paused,
      k.heldJobs,
      k.review,
      k.reviewIndex,
      k.reviewFirstSync,
      k.recordHistoryPrune,
      k.webhookAnnounced,
      k.webhookSeen,
      k.webhookHealth,
      k.freshness,
    ].map((f) => f(connection));
    const perEntity = ENTITY_NAMES.flatMap((e) => [
      k.ledger(connection, e),
      k.ledgerByDate(connection, e),
      k.windowCheckpoint(connection, e),
      k.webhookPending(connection, e),
      k.webhookBatch(connection, e),
      ...RUN_KINDS.map((kind) => k.runs(connection, runStream(kind, e))),
    ]);
    return this.redis.del(...perConnection, ...new Set(perEntity));
  }
}
