import type { Redis } from 'ioredis';

/** What `FixedWindowLimiter.take` answers: allowed, or refused with the seconds until its window ends. */
export type WindowTake = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Counts uses of something costly per subject (a caller, a connection) in fixed windows, shared by every
 * worker: `<prefix>:limit:<name>:<subject>`, expiring with its window. INCR and the first EXPIRE go in one
 * MULTI, so a counter never outlives its window. Each key is used alone (any slot on a Cluster).
 */
export class FixedWindowLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** Names the limit in its keys, e.g. `source-read`. */
    readonly name: string,
    readonly uses: number,
    readonly windowSeconds: number,
  ) {}

  /** Counts one use by `subject`: allowed while the window holds at most `uses` of them. */
  async take(subject: string): Promise<WindowTake> {
    const key = `${this.prefix}:limit:${this.name}:${encodeURIComponent(subject)}`;
    const replies = await this.redis.multi().incr(key).expire(key, this.windowSeconds, 'NX').ttl(key).exec();
    const count = Number(replies?.[0]?.[1] ?? 0);
    if (count <= this.uses) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Number(replies?.[2]?.[1] ?? this.windowSeconds)) };
  }
}
