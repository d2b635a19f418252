import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';
import { LuaScript } from './lua-script.js';

export interface QuarantineEntry {
  connection: string;
  entity: string;
  erpId: string;
  /** Source version of the record that failed. */
  version: string;
  /**
   * Reason code: AMOUNTS_INCONSISTENT, FX_UNDERIVABLE, ... (mapping), BILLING_REJECTED, BILLING_CONFLICT,
   * BILLING_AUTH, DEPENDENCY_MISSING (billing), RETRIES_EXHAUSTED, STALLED, JOB_INVALID, BILLING_COMPANY_CHANGED
   * (jobs/upsert/failed-upsert.ts).
   */
  reason: string;
  /** Human message (the mapper's, or the billing service's own). */
  message: string;
  field?: string;
  /** Where it failed: map | upsert. */
  stage: 'map' | 'upsert';
  at: number;
  /** BullMQ attempts made, and (for a job BullMQ failed itself) how often it was started. */
  attempts?: number;
  started?: number;
  /** For replay of upsert failures: the job payload (no secrets; billing bodies only). */
  payload?: unknown;
}

// A newer (or equal) version supersedes; an older one never overwrites a newer entry.
const PUT_IF_NOT_OLDER = LuaScript.load('put-if-not-older-1');
// Clear only if the entry is not newer than the version that just succeeded.
const CLEAR_IF_NOT_NEWER = LuaScript.load('clear-if-not-newer-1');

/**
 * Records that could not be synced, with why. Nothing is dropped silently: every invalid record or
 * permanent billing refusal lands here, can be listed, shown, replayed and purged.
 */
export class Quarantine {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  static field(entity: string, erpId: string): string {
    return `${entity}|${erpId}`;
  }

  async put(e: QuarantineEntry): Promise<boolean> {
    const r = await PUT_IF_NOT_OLDER.run(
      this.redis,
      [this.keys.quarantine(e.connection)],
      [Quarantine.field(e.entity, e.erpId), e.version, JSON.stringify(e)],
    );
    return r === 1;
  }

  /** A later success (or a newer valid version) supersedes the entry. */
  async clear(connection: string, entity: string, erpId: string, version: string): Promise<boolean> {
    return (
      (await CLEAR_IF_NOT_NEWER.run(
        this.redis,
        [this.keys.quarantine(connection)],
        [Quarantine.field(entity, erpId), version],
      )) === 1
    );
  }

  async get(connection: string, entity: string, erpId: string): Promise<QuarantineEntry | undefined> {
    const raw = await this.redis.hget(this.keys.quarantine(connection), Quarantine.field(entity, erpId));
    return raw ? (JSON.parse(raw) as QuarantineEntry) : undefined;
  }

  async list(connection: string): Promise<QuarantineEntry[]> {
    const h = await this.redis.hgetall(this.keys.quarantine(connection));
    return Object.values(h)
      .map((v) => JSON.parse(v) as QuarantineEntry)
      .sort((a, b) => a.at - b.at);
  }

  async count(connection: string): Promise<number> {
    return this.redis.hlen(this.keys.quarantine(connection));
  }

  async countByReason(connection: string): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const e of await this.list(connection)) out[e.reason] = (out[e.reason] ?? 0) + 1;
    return out;
  }

  async remove(connection: string, entity: string, erpId: string): Promise<boolean> {
    return (await this.redis.hdel(this.keys.quarantine(connection), Quarantine.field(entity, erpId))) === 1;
  }

  async purge(connection: string): Promise<number> {
    const n = await this.count(connection);
    await this.redis.del(this.keys.quarantine(connection));
    return n;
  }
}
