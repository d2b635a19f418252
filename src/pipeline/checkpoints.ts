import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';
import { LuaScript } from './lua-script.js';

export interface Checkpoint<State = Record<string, unknown>> {
  state: State;
  /** ms since epoch when it was saved. */
  savedAt: number;
}

/** A checkpoint as a pull reads it: with the stream's rewind count, which its saves must present. */
export interface CheckpointRead<State> {
  checkpoint?: Checkpoint<State>;
  rewinds: number;
}

const SAVE = LuaScript.load('save-checkpoint-2');
const REWIND = LuaScript.load('rewind-checkpoint-2');

/**
 * Stream state per (connection, entity): a Redis hash per connection, field = entity. Written only
 * after the page's jobs are durably enqueued (the pull job's rule), so a crash between the two re-reads
 * the page and the deterministic job ids make the re-enqueue harmless.
 *
 * A rewind (reconcile's repair, a quarantine replay) and a pull can meet: the pull read the checkpoint,
 * the rewind moves it back, then the pull saves its later cursor — and the rewind would be lost without
 * a trace. Chosen rule: compare-and-set on a per-stream rewind count. Every rewind bumps the count; a
 * pull presents the count it read, and its saves are refused once a rewind happened in between. The
 * rewound checkpoint stays, and the next pull reads from it. (Applying the rewind on top of the pull's
 * save instead would mix the pull's paging state with a cursor it never had.)
 */
export class Checkpoints {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  async get<State>(connection: string, entity: string): Promise<Checkpoint<State> | undefined> {
    return (await this.read<State>(connection, entity)).checkpoint;
  }

  /** The checkpoint and the rewind count, read together (what a pull starts from). */
  async read<State>(connection: string, entity: string): Promise<CheckpointRead<State>> {
    const replies = (await this.redis
      .multi()
      .hget(this.keys.checkpoint(connection), entity)
      .hget(this.keys.checkpointRewinds(connection), entity)
      .exec()) as Array<[Error | null, string | null]> | null;
    if (!replies) throw new Error(`checkpoint of ${connection}/${entity}: the read transaction was aborted`);
    const [[readError, raw], [countError, rewinds]] = replies as [
      [Error | null, string | null],
      [Error | null, string | null],
    ];
    if (readError || countError) throw readError ?? countError;
    return { checkpoint: raw ? (JSON.parse(raw) as Checkpoint<State>) : undefined, rewinds: Number(rewinds ?? 0) };
  }

  /**
   * Saves a stream's state. With `rewindsSeen` (what `read` returned), the save is refused (false) when
   * the stream was rewound since; without it, it always writes.
   */
  async save<State>(
    connection: string,
    entity: string,
    state: State,
    options: { rewindsSeen?: number; now?: number } = {},
  ): Promise<boolean> {
    const json = JSON.stringify({ state, savedAt: options.now ?? Date.now() } satisfies Checkpoint<State>);
    if (options.rewindsSeen === undefined) {
      await this.redis.hset(this.keys.checkpoint(connection), entity, json);
      return true;
    }
    const r = await SAVE.run(
      this.redis,
      [this.keys.checkpoint(connection), this.keys.checkpointRewinds(connection)],
      [entity, json, String(options.rewindsSeen)],
    );
    return r === 1;
  }

  /**
   * Moves a stream's cursor back to `cursor` (never forward: a stream without a checkpoint, or with a
   * null cursor, already reads from the beginning), keeping the rest of its state, so the next pull
   * reads those records again. A pull running at the same moment cannot save over it (see above).
   * Returns true when the checkpoint was moved back.
   */
  async rewindCheckpoint(connection: string, entity: string, cursor: string, now = Date.now()): Promise<boolean> {
    const keys = [this.keys.checkpoint(connection), this.keys.checkpointRewinds(connection)];
    for (;;) {
      const raw = await this.redis.hget(this.keys.checkpoint(connection), entity);
      if (!raw) return false;
      const cp = JSON.parse(raw) as Checkpoint<{ cursor?: string | null }>;
      const current = cp.state.cursor;
      if (typeof current !== 'string' || current <= cursor) return false;
      const rewound = JSON.stringify({ state: { ...cp.state, cursor }, savedAt: now } satisfies Checkpoint);
      // Compare-and-set: another writer (a pull's save, another rewind) in between → read again.
      if ((await REWIND.run(this.redis, keys, [entity, raw, rewound])) === 1) return true;
    }
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
