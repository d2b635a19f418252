import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';
import { LuaScript } from './lua-script.js';
import { Quarantine } from './quarantine.js';

const SETTLE = LuaScript.load('settle-in-flight-1');
const HAND_OVER = LuaScript.load('hand-over-in-flight-1');

/** One record handed to the upsert queue and not yet written, skipped or quarantined. */
export interface InFlightEntry<P = unknown> {
  entity: string;
  erpId: string;
  /** The upsert job that carries it now. */
  jobId: string;
  /** ms since epoch, when it was (last) enqueued. */
  enqueuedAt: number;
  /** The job's payload: what the sweep enqueues again if the job is gone. */
  payload: P;
}

/**
 * Every record a pull (or a replay) enqueues is tracked here until it reaches an outcome: written (the
 * upsert's commit settles it in the same script as the ledger write), skipped as unchanged or stale, or
 * quarantined. An entry whose job is gone, or failed without a quarantine entry, is a record about to be
 * lost without a trace; the sweep (jobs/sweep/sweep-processor.ts) finds it and acts. One hash per connection, field
 * `entity|erpId`, value `jobId|enqueuedAt|payload`: bounded by the upsert backlog, emptied as jobs finish.
 */
export class InFlight {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  /** Before the jobs are added: a crash in between leaves an entry whose job is gone, which the sweep re-enqueues. */
  async track(
    connection: string,
    entries: ReadonlyArray<Omit<InFlightEntry, 'enqueuedAt'>>,
    at = Date.now(),
  ): Promise<void> {
    if (!entries.length) return;
    const args: string[] = [];
    for (const e of entries)
      args.push(Quarantine.field(e.entity, e.erpId), `${e.jobId}|${at}|${JSON.stringify(e.payload)}`);
    await this.redis.hset(this.keys.inFlight(connection), ...args);
  }

  /** The record reached an outcome in job `jobId`; false when its entry names another job (a newer version). */
  async settle(connection: string, entity: string, erpId: string, jobId: string): Promise<boolean> {
    return (
      (await SETTLE.run(this.redis, [this.keys.inFlight(connection)], [Quarantine.field(entity, erpId), jobId])) === 1
    );
  }

  /**
   * A record leaving job `from` (a failed batch) for its own job, checked and moved in one step: 'moved'
   * when its entry named `from` and now names the new job; 'already' when it named the new job already
   * (another call handed it over; left as it is, so an entry the new job has since settled never comes
   * back); undefined otherwise (finished, or a newer version on its way).
   */
  async handOver(
    connection: string,
    from: string,
    entry: Omit<InFlightEntry, 'enqueuedAt'>,
    at = Date.now(),
  ): Promise<'moved' | 'already' | undefined> {
    const field = Quarantine.field(entry.entity, entry.erpId);
    const value = `${entry.jobId}|${at}|${JSON.stringify(entry.payload)}`;
    const r = await HAND_OVER.run(this.redis, [this.keys.inFlight(connection)], [from, entry.jobId, field, value]);
    return r === 1 ? 'moved' : r === 2 ? 'already' : undefined;
  }

  /** The source version each record is on its way to billing at (undefined: not in flight). */
  async versions(connection: string, entity: string, erpIds: readonly string[]): Promise<Array<string | undefined>> {
    if (!erpIds.length) return [];
    const raws = await this.redis.hmget(
      this.keys.inFlight(connection),
      ...erpIds.map((id) => Quarantine.field(entity, id)),
    );
    return raws.map((raw, i) => {
      if (raw === null) return undefined;
      const version = (parseEntry(Quarantine.field(entity, erpIds[i]!), raw).payload as { version?: unknown }).version;
      return typeof version === 'string' ? version : undefined;
    });
  }

  async count(connection: string): Promise<number> {
    return this.redis.hlen(this.keys.inFlight(connection));
  }

  /** Records in flight for these connections together (one HLEN each, sent at once). */
  async total(connections: readonly string[]): Promise<number> {
    const counts = await Promise.all(connections.map((c) => this.count(c)));
    return counts.reduce((a, b) => a + b, 0);
  }

  async get(connection: string, entity: string, erpId: string): Promise<InFlightEntry | undefined> {
    const raw = await this.redis.hget(this.keys.inFlight(connection), Quarantine.field(entity, erpId));
    return raw === null ? undefined : parseEntry(Quarantine.field(entity, erpId), raw);
  }

  /** Every entry, in batches (HSCAN: memory bounded by the batch, not the backlog). */
  async *scan(connection: string, batch = 500): AsyncGenerator<InFlightEntry[]> {
    let cursor = '0';
    do {
      const [next, flat] = await this.redis.hscan(this.keys.inFlight(connection), cursor, 'COUNT', batch);
      cursor = next;
      const out: InFlightEntry[] = [];
      for (let i = 0; i < flat.length; i += 2) out.push(parseEntry(flat[i]!, flat[i + 1]!));
      if (out.length) yield out;
    } while (cursor !== '0');
  }
}

function parseEntry(field: string, raw: string): InFlightEntry {
  const bar = field.indexOf('|');
  const first = raw.indexOf('|');
  const second = raw.indexOf('|', first + 1);
  return {
    entity: field.slice(0, bar),
    erpId: field.slice(bar + 1),
    jobId: raw.slice(0, first),
    enqueuedAt: Number(raw.slice(first + 1, second)),
    payload: JSON.parse(raw.slice(second + 1)) as unknown,
  };
}
