import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';

export interface Checkpoint<State = Record<string, unknown>> {
  state: State;
  /** ms since epoch when it was saved. */
  savedAt: number;
}

/**
 * Stream state per (connection, entity): a Redis hash per connection, field = entity. Written only
 * after the page's jobs are durably enqueued (the pull job's rule), so a crash between the two re-reads
 * the page and the deterministic job ids make the re-enqueue harmless.
 */
export class Checkpoints {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  async get<State>(connection: string, entity: string): Promise<Checkpoint<State> | undefined> {
    const raw = await this.redis.hget(this.keys.checkpoint(connection), entity);
    return raw ? (JSON.parse(raw) as Checkpoint<State>) : undefined;
  }

  async set<State>(connection: string, entity: string, state: State, now = Date.now()): Promise<void> {
    await this.redis.hset(this.keys.checkpoint(connection), entity, JSON.stringify({ state, savedAt: now } satisfies Checkpoint<State>));
  }

  async all(connection: string): Promise<Record<string, Checkpoint>> {
    const h = await this.redis.hgetall(this.keys.checkpoint(connection));
    return Object.fromEntries(Object.entries(h).map(([k, v]) => [k, JSON.parse(v) as Checkpoint]));
  }

  /** Backfill windows: a checkpoint per window so a re-run resumes where each window stopped. */
  async getWindow<State>(connection: string, entity: string, window: string): Promise<State | undefined> {
    const raw = await this.redis.hget(this.keys.windowCheckpoint(connection, entity), window);
    return raw ? (JSON.parse(raw) as State) : undefined;
  }

  async setWindow<State>(connection: string, entity: string, window: string, state: State): Promise<void> {
    await this.redis.hset(this.keys.windowCheckpoint(connection, entity), window, JSON.stringify(state));
  }
}
