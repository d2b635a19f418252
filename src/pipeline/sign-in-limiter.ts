import type { Redis } from 'ioredis';
import { limitBucket } from '../http/client-address.js';

/** Wrong credentials allowed per client address (an IPv6 address: per /64) in a window. */
export const SIGN_IN_ATTEMPTS = 10;
export const SIGN_IN_WINDOW_SECONDS = 60;
/** Wrong credentials from every address together in a window, past which an address that already failed is refused. */
export const SIGN_IN_GLOBAL_ATTEMPTS = 100;

export interface SignInLimits {
  /** Wrong credentials per address in a window. @defaultValue 10 */
  attempts: number;
  windowSeconds: number;
  /** Wrong credentials of all addresses together in a window. @defaultValue 100 */
  globalAttempts: number;
}

export type LimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Count {
  n: number;
  ttl: number;
}

/**
 * Counts wrong credentials (console sign-ins, API and queue UI bearer tokens) per client address in fixed
 * windows, shared by every worker: `<prefix>:console:signin:<bucket>` (an IPv4 address, or an IPv6 /64)
 * and `<prefix>:console:signin-all` for every address together, each expiring with its window.
 *
 * Only wrong credentials are counted, each before it is answered (INCR), so concurrent guesses cannot
 * slip past the limit together; a right credential is counted nothing but is refused too while its
 * address is limited, or the answer would tell the right guess from the wrong ones. Refused:
 * - an address past `attempts` in its window;
 * - past `globalAttempts` for all addresses together (many addresses, or a /64 each), an address that has
 *   failed already in this window. An address without a failure is never refused by the ceiling, so
 *   people who type their token right are not locked out by someone else's guessing.
 */
export class SignInLimiter {
  readonly limits: SignInLimits;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    limits: Partial<SignInLimits> = {},
  ) {
    this.limits = {
      attempts: SIGN_IN_ATTEMPTS,
      windowSeconds: SIGN_IN_WINDOW_SECONDS,
      globalAttempts: SIGN_IN_GLOBAL_ATTEMPTS,
      ...limits,
    };
  }

  private keys(address: string): { one: string; all: string } {
    return { one: `${this.prefix}:console:signin:${limitBucket(address)}`, all: `${this.prefix}:console:signin-all` };
  }

  /** A right credential from `address`: allowed unless that address is limited. Counts nothing. */
  async admit(address: string): Promise<LimitVerdict> {
    const { one, all } = this.keys(address);
    const [own, every] = await Promise.all([this.read(one), this.read(all)]);
    return this.verdict({ n: own.n + 1, ttl: own.ttl }, every);
  }

  /** Counts a wrong credential from `address`; refused once the address (or the ceiling) is past its limit. */
  async fail(address: string): Promise<LimitVerdict & { failures: number; allFailures: number }> {
    const { one, all } = this.keys(address);
    const [own, every] = await Promise.all([this.count(one), this.count(all)]);
    return { ...this.verdict(own, every), failures: own.n, allFailures: every.n };
  }

  private verdict(own: Count, every: Count): LimitVerdict {
    const retry = (ttl: number) => ({
      allowed: false as const,
      retryAfterSeconds: Math.max(1, ttl > 0 ? ttl : this.limits.windowSeconds),
    });
    if (own.n > this.limits.attempts) return retry(own.ttl);
    if (every.n > this.limits.globalAttempts && own.n > 1) return retry(every.ttl);
    return { allowed: true };
  }

  private async read(key: string): Promise<Count> {
    const replies = await this.redis.multi().get(key).ttl(key).exec();
    return { n: Number(replies?.[0]?.[1] ?? 0), ttl: Number(replies?.[1]?.[1] ?? -2) };
  }

  /** INCR and the first EXPIRE in one MULTI, so a counter never outlives its window. */
  private async count(key: string): Promise<Count> {
    const replies = await this.redis.multi().incr(key).expire(key, this.limits.windowSeconds, 'NX').ttl(key).exec();
    return { n: Number(replies?.[0]?.[1] ?? 0), ttl: Number(replies?.[2]?.[1] ?? -2) };
  }
}
