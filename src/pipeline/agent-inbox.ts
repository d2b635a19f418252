import type { Redis } from 'ioredis';
import type { AgentInboxReader } from '../connector/agent-inbox-reader.js';
import type { StateKeys } from './keys.js';
import { LuaScript } from './lua-script.js';

const ACCEPT = LuaScript.load('accept-agent-batch-3');
/** Ids per HMGET / ZSCAN page when reading the inbox. */
const PAGE = 500;

/** One batch as the agent route hands it over, validated (src/http/agent-batch.ts). */
export interface InboxBatch {
  entity: string;
  fromCounter: number;
  toCounter: number;
  records: ReadonlyArray<{ id: string; counter: number; raw: unknown }>;
  agentVersion: string;
  backlog: number;
  lookups?: unknown;
}

/** What the worker knows of a connection's agent: its last contact, version and backlog, where it stands. */
export interface AgentContact {
  lastContactAt?: string;
  agentVersion?: string;
  backlog?: number;
  acked: Record<string, number>;
}

/**
 * The records agents push, per connection and entity: each id's latest raw copy (a hash) and its order by
 * the source's change counter (a sorted set), and per connection the acknowledged position of each entity
 * with the agent's last contact. A batch is taken in one script (accept-agent-batch-3.lua), so once the
 * agent hears its acknowledgement the batch is in Redis; a batch sent again is taken again without change
 * (the same ids at the same counters), and a batch that would leave a gap is refused with the position
 * the agent must resend from. All of one connection's keys share its hash tag on a Cluster.
 */
export class AgentInbox {
  constructor(
    private readonly redis: Redis,
    private readonly keys: Pick<StateKeys, 'agentRecords' | 'agentOrder' | 'agentState'>,
  ) {}

  async accept(connection: string, b: InboxBatch): Promise<{ taken: boolean; acked: number }> {
    const args: Array<string | number> = [
      b.entity,
      b.fromCounter,
      b.toCounter,
      Date.now(),
      b.agentVersion,
      b.backlog,
      b.lookups === undefined ? '' : JSON.stringify(b.lookups),
    ];
    for (const r of b.records) args.push(r.id, r.counter, JSON.stringify(r.raw));
    const keys = [
      this.keys.agentRecords(connection, b.entity),
      this.keys.agentOrder(connection, b.entity),
      this.keys.agentState(connection),
    ];
    const [taken, acked] = (await ACCEPT.run(this.redis, keys, args)) as [number, number];
    return { taken: taken === 1, acked: Number(acked) };
  }

  async contact(connection: string): Promise<AgentContact | undefined> {
    const h = await this.redis.hgetall(this.keys.agentState(connection));
    if (!h.lastContactMs) return undefined;
    const acked: Record<string, number> = {};
    for (const [k, v] of Object.entries(h)) if (k.startsWith('acked:')) acked[k.slice('acked:'.length)] = Number(v);
    return {
      lastContactAt: new Date(Number(h.lastContactMs)).toISOString(),
      ...(h.agentVersion ? { agentVersion: h.agentVersion } : {}),
      ...(h.backlog !== undefined ? { backlog: Number(h.backlog) } : {}),
      acked,
    };
  }

  /** The read side for one connection, as a connector in agent mode sees it (ReadContext.agentInbox). */
  readerFor(connection: string): AgentInboxReader {
    const recordsOf = async (entity: string, ids: readonly string[]) => {
      const out: unknown[] = [];
      for (let i = 0; i < ids.length; i += PAGE) {
        const page = ids.slice(i, i + PAGE);
        if (page.length === 0) continue;
        const raws = await this.redis.hmget(this.keys.agentRecords(connection, entity), ...page);
        for (const raw of raws) if (raw !== null) out.push(JSON.parse(raw) as unknown);
      }
      return out;
    };
    const redis = this.redis;
    const keys = this.keys;
    return {
      acked: async (entity) => Number((await redis.hget(keys.agentState(connection), `acked:${entity}`)) ?? 0),
      range: async (entity, lo, hi) =>
        recordsOf(entity, await redis.zrangebyscore(keys.agentOrder(connection, entity), `(${lo}`, hi)),
      byIds: recordsOf,
      ids: async function* (entity) {
        let cursor = '0';
        do {
          const [next, flat] = await redis.zscan(keys.agentOrder(connection, entity), cursor, 'COUNT', PAGE);
          cursor = next;
          const ids = flat.filter((_, i) => i % 2 === 0);
          if (ids.length > 0) yield ids;
        } while (cursor !== '0');
      },
      lookups: async () => {
        const json = await redis.hget(keys.agentState(connection), 'lookups');
        return json === null ? undefined : (JSON.parse(json) as unknown);
      },
    };
  }
}
