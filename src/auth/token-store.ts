import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { AuthError } from '../errors/index.js';
import { LuaScript } from '../pipeline/lua-script.js';

/** What a vendor's token endpoint answered. `refreshToken` is set when the vendor rotated it. */
export interface RefreshResult {
  accessToken: string;
  expiresInSeconds: number;
  refreshToken?: string;
}

export type RefreshFn = (refreshToken: string, signal?: AbortSignal) => Promise<RefreshResult>;

export interface TokenStoreOptions {
  /** Key prefix, e.g. "erp-sync" → "erp-sync:token:<connection>". */
  prefix: string;
  /** Refresh this long before expiry, ms. @defaultValue 60000 */
  skewMs?: number;
  /** How long one refresh may hold the lock, ms. @defaultValue 30000 */
  lockMs?: number;
  /** Poll interval while another process refreshes, ms. @defaultValue 50 */
  pollMs?: number;
  now?: () => number;
  /** How a caller waits while another process refreshes (injectable for tests). @defaultValue a timer of pollMs */
  wait?: (ms: number, signal?: AbortSignal) => Promise<unknown>;
}

// Release the lock only if we still own it (compare-and-delete).
const RELEASE = LuaScript.load('release-lock-1');
// Write the new tokens only if we still own the lock: a refresh that outlived its lock must not
// overwrite a newer rotation (fencing).
const WRITE_IF_OWNER = LuaScript.load('write-tokens-if-owner-2');

/**
 * OAuth tokens per connection, kept in Redis so every worker process shares them.
 * - The refresh token in Redis wins over the one in config once a vendor has rotated it
 *   (config only seeds it: a rotated token would make the config's one invalid).
 * - One refresh at a time per connection across processes: SET NX lock; the others wait for it and
 *   read the result, so concurrent workers never spend (and invalidate) the same single-use token.
 * - The new refresh token is written atomically with the access token, under the lock.
 */
export class TokenStore {
  private readonly skewMs: number;
  private readonly lockMs: number;
  private readonly pollMs: number;
  private readonly now: () => number;
  private readonly wait: (ms: number, signal?: AbortSignal) => Promise<unknown>;

  constructor(
    private readonly redis: Redis,
    private readonly options: TokenStoreOptions,
  ) {
    this.skewMs = options.skewMs ?? 60_000;
    this.lockMs = options.lockMs ?? 30_000;
    this.pollMs = options.pollMs ?? 50;
    this.now = options.now ?? Date.now;
    this.wait = options.wait ?? ((ms, signal) => sleep(ms, undefined, { signal }));
  }

  private key(connectionId: string): string {
    return `${this.options.prefix}:token:${connectionId}`;
  }

  /** Seeds the refresh token from config unless Redis already holds one (possibly rotated since). */
  async seed(connectionId: string, refreshToken: string): Promise<void> {
    await this.redis.hsetnx(this.key(connectionId), 'refreshToken', refreshToken);
  }

  /** Current state, for status output (never logged with values). */
  async describe(connectionId: string): Promise<{ hasAccessToken: boolean; expiresAt?: number; rotatedAt?: number }> {
    const h = await this.redis.hgetall(this.key(connectionId));
    return {
      hasAccessToken: Boolean(h.accessToken),
      expiresAt: h.expiresAt ? Number(h.expiresAt) : undefined,
      rotatedAt: h.rotatedAt ? Number(h.rotatedAt) : undefined,
    };
  }

  /**
   * A valid access token. `stale` = a token the vendor just refused: it is refreshed even if not
   * expired, unless another process already replaced it.
   */
  async accessToken(connectionId: string, refresh: RefreshFn, stale?: string, signal?: AbortSignal): Promise<string> {
    const key = this.key(connectionId);
    const lockKey = `${key}:lock`;
    const deadline = this.now() + this.lockMs * 2;
    for (;;) {
      const h = await this.redis.hgetall(key);
      if (h.accessToken && h.accessToken !== stale && Number(h.expiresAt ?? 0) - this.skewMs > this.now()) {
        return h.accessToken;
      }
      const owner = randomUUID();
      const got = await this.redis.set(lockKey, owner, 'PX', this.lockMs, 'NX');
      if (got === 'OK') {
        try {
          // Re-read under the lock: the previous holder may have just refreshed.
          const cur = await this.redis.hgetall(key);
          if (cur.accessToken && cur.accessToken !== stale && Number(cur.expiresAt ?? 0) - this.skewMs > this.now()) {
            return cur.accessToken;
          }
          if (!cur.refreshToken) {
            throw new AuthError(`connection ${connectionId}: no refresh token; re-authorise the connection`, { source: connectionId });
          }
          const r = await refresh(cur.refreshToken, signal);
          const written = await WRITE_IF_OWNER.run(
            this.redis,
            [key, lockKey],
            [owner, r.accessToken, String(this.now() + r.expiresInSeconds * 1000), r.refreshToken ?? cur.refreshToken, String(this.now())],
          );
          if (written !== 1) {
            // Lost the lock mid-refresh; if the vendor rotated, the token we got may be the only valid
            // one, but another holder wrote after us. Start over and read what is there.
            continue;
          }
          return r.accessToken;
        } finally {
          await RELEASE.run(this.redis, [lockKey], [owner]);
        }
      }
      if (this.now() > deadline) {
        throw new AuthError(`connection ${connectionId}: token refresh did not finish in time`, { source: connectionId });
      }
      await this.wait(this.pollMs, signal);
    }
  }
}
