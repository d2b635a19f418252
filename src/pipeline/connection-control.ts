import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';
import { LuaScript } from './lua-script.js';

/** A connection an operator paused: since when (ms since epoch), by whom and why, as they said. */
export interface Pause {
  since: number;
  by?: string;
  reason?: string;
}

export type RunState = { state: 'running' } | ({ state: 'paused' } & Pause);

/** What a held job is recorded as: its queue and id. Queue names hold no ':' (jobs/catalog.ts). */
export interface HeldJob {
  queue: string;
  jobId: string;
}

const HOLD = LuaScript.load('hold-if-paused-2');
/** Reasons and names are an operator's free text: kept short (they are shown, never parsed). */
const TEXT_MAX = 300;

const member = (h: HeldJob): string => `${h.queue}:${h.jobId}`;
function heldJob(m: string): HeldJob {
  const i = m.indexOf(':');
  return { queue: m.slice(0, i), jobId: m.slice(i + 1) };
}

/**
 * Per-connection control, persisted in Redis and shared by every process: an operator pauses a
 * connection and its jobs stop starting (jobs/admission/connection-gate.ts holds each one as it starts, recorded
 * here), until a resume releases them. Pausing is idempotent: a second pause keeps the first one's
 * `since`, `by` and `reason`, so "paused since" measures the whole pause.
 */
export class ConnectionControl {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  /** Pauses the connection unless it already is; returns the pause in force and whether this call made it. */
  async pause(
    connection: string,
    by: { by?: string; reason?: string } = {},
    at = Date.now(),
  ): Promise<{ pause: Pause; changed: boolean }> {
    const key = this.keys.paused(connection);
    const pause: Pause = {
      since: at,
      ...(by.by ? { by: by.by.slice(0, TEXT_MAX) } : {}),
      ...(by.reason ? { reason: by.reason.slice(0, TEXT_MAX) } : {}),
    };
    const [[, set], [, raw]] = (await this.redis.multi().set(key, JSON.stringify(pause), 'NX').get(key).exec()) as [
      [null, string | null],
      [null, string | null],
    ];
    return set ? { pause, changed: true } : { pause: raw ? (JSON.parse(raw) as Pause) : pause, changed: false };
  }

  /**
   * Ends the pause (if any) and returns it with the jobs held meanwhile, which the caller releases
   * (operations/resume-connection.ts) and then forgets with `released`. They stay recorded until then, so a
   * resume interrupted half-way is finished by running it again.
   */
  async resume(connection: string): Promise<{ pause?: Pause; held: HeldJob[] }> {
    const key = this.keys.paused(connection);
    const [[, raw], , [, members]] = (await this.redis
      .multi()
      .get(key)
      .del(key)
      .smembers(this.keys.heldJobs(connection))
      .exec()) as [[null, string | null], [null, number], [null, string[]]];
    return { ...(raw ? { pause: JSON.parse(raw) as Pause } : {}), held: members.map(heldJob) };
  }

  async state(connection: string): Promise<RunState> {
    const raw = await this.redis.get(this.keys.paused(connection));
    return raw ? { state: 'paused', ...(JSON.parse(raw) as Pause) } : { state: 'running' };
  }

  /**
   * One step, as a job of the connection starts: when the connection is paused, the job is recorded as
   * held (unless `job` is omitted) and the pause is returned; otherwise undefined and nothing is written.
   */
  async holdIfPaused(connection: string, job?: HeldJob): Promise<Pause | undefined> {
    const raw = (await HOLD.run(
      this.redis,
      [this.keys.paused(connection), this.keys.heldJobs(connection)],
      [job ? member(job) : ''],
    )) as string | null;
    return raw ? (JSON.parse(raw) as Pause) : undefined;
  }

  /** Held jobs that were released (or are gone): no longer recorded. */
  async released(connection: string, jobs: readonly HeldJob[]): Promise<void> {
    if (jobs.length) await this.redis.srem(this.keys.heldJobs(connection), ...jobs.map(member));
  }

  /** How many jobs are recorded as held (a resumed connection with some left: run the resume again). */
  async heldCount(connection: string): Promise<number> {
    return this.redis.scard(this.keys.heldJobs(connection));
  }
}
