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

/** A person's word that a drifted record needs nothing more: who, when, why, and the version it was about. */
export interface DriftResolution {
  by: string;
  /** ms since epoch */
  at: number;
  note: string;
  /** The ledger's source version of the record when it was resolved (null: the ledger holds none). */
  version: string | null;
}

/** A record whose last verdict is drift. */
export interface DriftedRecord {
  entity: string;
  erpId: string;
  verdict: ReconcileVerdict;
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

/** `invoices|INV-1|x` → ['invoices', 'INV-1|x'] (an ERP id may hold '|', an entity name never does). */
function splitField(field: string): [string, string] {
  const at = field.indexOf('|');
  return [field.slice(0, at), field.slice(at + 1)];
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

  /**
   * The records whose last verdict is drift (not "ok"), walked in HSCAN batches: at most `maxScanned`
   * verdicts are read (the hash holds one per invoice ever reconciled), `complete` says whether all were.
   */
  async drifted(
    connection: string,
    maxScanned = 200_000,
  ): Promise<{ records: DriftedRecord[]; scanned: number; complete: boolean }> {
    const records: DriftedRecord[] = [];
    let cursor = '0';
    let scanned = 0;
    do {
      const [next, flat] = await this.redis.hscan(this.keys.verdicts(connection), cursor, 'COUNT', 1000);
      cursor = next;
      for (let i = 0; i < flat.length; i += 2) {
        scanned++;
        const v = JSON.parse(flat[i + 1]!) as ReconcileVerdict;
        if (v.verdict === 'ok') continue;
        const [entity, erpId] = splitField(flat[i]!);
        records.push({ entity, erpId, verdict: v });
      }
    } while (cursor !== '0' && scanned < maxScanned);
    return { records, scanned, complete: cursor === '0' };
  }

  async lastRun(connection: string): Promise<ReconcileRun | undefined> {
    const raw = await this.redis.hget(this.keys.reconcile(connection), 'last');
    return raw ? (JSON.parse(raw) as ReconcileRun) : undefined;
  }

  /**
   * Resolutions live in the connection's reconcile hash (field `resolved|entity|erpId`, about 150 bytes
   * each plus the note), beside its last run: a rebind to another company deletes both with the verdicts.
   */
  async resolve(connection: string, entity: string, erpId: string, resolution: DriftResolution): Promise<void> {
    await this.redis.hset(
      this.keys.reconcile(connection),
      `resolved|${ReconcileState.field(entity, erpId)}`,
      JSON.stringify(resolution),
    );
  }

  /** Every resolution of the connection, by `entity|erpId` (one read: a person writes them, one at a time). */
  async resolutions(connection: string): Promise<Map<string, DriftResolution>> {
    const all = await this.redis.hgetall(this.keys.reconcile(connection));
    const out = new Map<string, DriftResolution>();
    for (const [f, v] of Object.entries(all))
      if (f.startsWith('resolved|')) out.set(f.slice('resolved|'.length), JSON.parse(v) as DriftResolution);
    return out;
  }

  async recordRun(connection: string, run: ReconcileRun): Promise<void> {
    await this.redis.hset(this.keys.reconcile(connection), 'last', JSON.stringify(run));
  }

  /** A scratch set of ids for one run (`name` unique to it). */
  scratchSet(connection: string, name: string): ScratchIdSet {
    return new ScratchIdSet(this.redis, this.keys.reconcileScratch(connection, name));
  }
}
