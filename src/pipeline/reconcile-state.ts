import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';

/** The last reconciliation verdict on one record (what `erp-sync explain` shows). */
export interface ReconcileVerdict {
  /** ISO instant of the run. */
  at: string;
  /** The run's window, "from..to". */
  window: string;
  /** "ok", or the drift kinds found, comma-separated. */
  verdict: string;
  detail?: string;
}

/** A run's summary, kept per connection. */
export interface ReconcileRun {
  at: string;
  from: string;
  to: string;
  counts: Record<string, number>;
}

/**
 * A reconcile run's set of ids in Redis (not in memory: a window may hold hundreds of thousands), with a
 * safety expiry in case the run dies before it drops the set.
 */
export class ScratchIdSet {
  constructor(
    private readonly redis: Redis,
    readonly key: string,
  ) {}

  async add(ids: readonly string[]): Promise<void> {
    if (ids.length) await this.redis.sadd(this.key, ...ids);
  }

  /** For each id, whether the set holds it (one round trip). */
  async has(ids: readonly string[]): Promise<boolean[]> {
    if (!ids.length) return [];
    return (await this.redis.smismember(this.key, ...ids)).map((n) => n === 1);
  }

  async expireIn(ms: number): Promise<void> {
    await this.redis.pexpire(this.key, ms);
  }

  async drop(): Promise<void> {
    await this.redis.del(this.key);
  }
}

/** What reconciliation keeps between runs: verdicts per record, the last run, and its scratch sets. */
export class ReconcileState {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  private static field(entity: string, erpId: string): string {
    return `${entity}|${erpId}`;
  }

  /** Each record's verdict replaces the previous one (the last run's word counts). */
  async recordVerdicts(
    connection: string,
    entity: string,
    verdicts: ReadonlyArray<readonly [erpId: string, verdict: ReconcileVerdict]>,
  ): Promise<void> {
    if (!verdicts.length) return;
    const fields = Object.fromEntries(
      verdicts.map(([erpId, v]) => [ReconcileState.field(entity, erpId), JSON.stringify(v)]),
    );
    await this.redis.hset(this.keys.verdicts(connection), fields);
  }

  async verdict(connection: string, entity: string, erpId: string): Promise<ReconcileVerdict | undefined> {
    const raw = await this.redis.hget(this.keys.verdicts(connection), ReconcileState.field(entity, erpId));
    return raw ? (JSON.parse(raw) as ReconcileVerdict) : undefined;
  }

  async recordRun(connection: string, run: ReconcileRun): Promise<void> {
    await this.redis.hset(this.keys.reconcile(connection), 'last', JSON.stringify(run));
  }

  /** A scratch set of ids for one run (`name` unique to it). */
  scratchSet(connection: string, name: string): ScratchIdSet {
    return new ScratchIdSet(this.redis, this.keys.reconcileScratch(connection, name));
  }
}
