import type { Redis } from 'ioredis';

/** Sign-in attempts allowed per client address in a window. */
export const SIGN_IN_ATTEMPTS = 10;
export const SIGN_IN_WINDOW_SECONDS = 60;

/**
 * Counts the console's sign-in attempts per client address in fixed windows (`<prefix>:console:signin:<address>`,
 * expiring with the window), shared by every worker. INCR and the first EXPIRE go in one MULTI, so a
 * counter never outlives its window.
 */
export class SignInLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    readonly attempts = SIGN_IN_ATTEMPTS,
    readonly windowSeconds = SIGN_IN_WINDOW_SECONDS,
  ) {}

  /** Counts one attempt of `address`: allowed, or refused with the seconds until the window ends. */
  async attempt(address: string): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> {
    const key = `${this.prefix}:console:signin:${address}`;
    const replies = await this.redis.multi().incr(key).expire(key, this.windowSeconds, 'NX').ttl(key).exec();
    const count = Number(replies?.[0]?.[1] ?? 0);
    if (count <= this.attempts) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Number(replies?.[2]?.[1] ?? this.windowSeconds)) };
  }
}
