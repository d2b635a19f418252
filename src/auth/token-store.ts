import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { AuthError, CredentialsRefusedError } from '../errors/index.js';
import { connectionTag } from '../pipeline/keys.js';
import { LuaScript } from '../pipeline/lua-script.js';
import { scanKeys } from '../redis.js';
import { TokenSealer } from './token-sealer.js';

/** What a vendor's token endpoint answered. `refreshToken` is set when the vendor rotated it. */
export interface RefreshResult {
  accessToken: string;
  expiresInSeconds: number;
  refreshToken?: string;
}

export type RefreshFn = (refreshToken: string, signal?: AbortSignal) => Promise<RefreshResult>;

export interface TokenStoreOptions {
  /** Key prefix, e.g. "erp-sync" → "erp-sync:token:<connection>" ("erp-sync:token:{<connection>}" on a Cluster). */
  prefix: string;
  /** A Redis Cluster: the connection id is the hash tag of its token hash and refresh lock (src/pipeline/keys.ts). */
  cluster?: boolean;
  /** Seals tokens at rest (ERP_SYNC_TOKEN_KEY). @defaultValue plain text */
  sealer?: TokenSealer;
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
const MARK_REFUSED = LuaScript.load('mark-tokens-refused-2');
const REPLACE = LuaScript.load('replace-tokens-2');
const RESEAL = LuaScript.load('reseal-tokens-1');

/** The fields of a token hash that hold a secret (sealed when a key is set). */
const SECRET_FIELDS = ['accessToken', 'refreshToken'] as const;

/** What `seed` did with the config's refresh token. */
export type SeedOutcome = 'kept' | 'seeded' | 'replaced' | 'adopted' | 'retired';

/** A connection's tokens as status output shows them: instants and states, never a token. */
export interface TokenStatus {
  /** Whether the store holds a refresh token at all. */
  hasRefreshToken: boolean;
  hasAccessToken: boolean;
  /** When the current grant's refresh token entered the store (seeded from config, or replaced). */
  grantedAt?: number;
  /** When the access token expires. */
  expiresAt?: number;
  /** The last successful refresh. */
  rotatedAt?: number;
  /** The last refusal of the refresh token by the vendor (cleared by a refresh that works, or a new token). */
  failedAt?: number;
  failure?: string;
  /** `plain`, or the id of the key the refresh token is sealed under. */
  sealedUnder?: string;
}

/** New tokens for a connection, from a new grant (an OAuth consent). */
export interface NewTokens {
  refreshToken: string;
  accessToken?: string;
  /** When `accessToken` expires (epoch ms). */
  expiresAt?: number;
}

/**
 * OAuth tokens per connection, kept in Redis so every worker process shares them.
 * - The config's refresh token seeds the store; the store remembers a keyed fingerprint (HMAC) of the
 *   token it was seeded with. The same config token again leaves the store alone (the vendor may have
 *   rotated it since, and Redis holds the live one); a different one is a re-consent and replaces it.
 * - Tokens are sealed at rest (AES-256-GCM, token-sealer.ts) when a key is set; plain values written
 *   before are read, and sealed on their next write, until `rekey` has sealed them all: from then on
 *   (a marker key) a plain value is refused, so nobody can swap in tokens of their own through Redis.
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
  readonly sealer: TokenSealer;

  constructor(
    private readonly redis: Redis,
    private readonly options: TokenStoreOptions,
  ) {
    this.skewMs = options.skewMs ?? 60_000;
    this.lockMs = options.lockMs ?? 30_000;
    this.pollMs = options.pollMs ?? 50;
    this.now = options.now ?? Date.now;
    this.wait = options.wait ?? ((ms, signal) => sleep(ms, undefined, { signal }));
    this.sealer = options.sealer ?? TokenSealer.plain();
  }

  private key(connectionId: string): string {
    return `${this.options.prefix}:token:${connectionTag(connectionId, { cluster: this.options.cluster })}`;
  }

  private seal(connectionId: string, field: string, value: string): string {
    return this.sealer.seal(value, `${connectionId}:${field}`);
  }

  /** A stored value opened; a plain one is refused once every token was sealed (sealedOnly). */
  private async open(connectionId: string, field: string, value: string | undefined): Promise<string | undefined> {
    if (value === undefined || value === '') return undefined;
    const refusePlain = await this.plainRefused(value);
    return this.sealer.open(value, `${connectionId}:${field}`, { refusePlain });
  }

  /** The marker `rekey` leaves once every stored value is sealed: from then on plain values are refused. */
  private get sealedOnlyKey(): string {
    return `${this.options.prefix}:token-sealed-only`;
  }

  /** Whether a plain `value` is refused: a key is set and rekey sealed everything. Read only for a plain value. */
  private async plainRefused(value: string): Promise<boolean> {
    if (!this.sealer.encrypted || TokenSealer.sealedUnder(value) !== 'plain') return false;
    return (await this.redis.exists(this.sealedOnlyKey)) === 1;
  }

  /**
   * The deployment's fingerprint key: 32 random bytes made once per Redis prefix (the first process
   * wins), sealed like the tokens. Not derived from the token key, so rotating that key never changes a
   * fingerprint (a changed fingerprint would put the config's spent token over a rotated live one).
   * Read at each seed (seeds are rare), never kept in the process: every process fingerprints with the
   * key Redis holds now, also after that key was lost and made again.
   */
  private async fingerprintKeyOf(): Promise<Buffer> {
    const key = `${this.options.prefix}:token-fingerprint-key`;
    await this.redis.set(key, this.sealer.seal(randomBytes(32).toString('base64'), 'fingerprint-key'), 'NX');
    const stored = await this.redis.get(key);
    if (!stored) throw new AuthError('token fingerprint key vanished from Redis');
    const refusePlain = await this.plainRefused(stored);
    return Buffer.from(this.sealer.open(stored, 'fingerprint-key', { refusePlain }), 'base64');
  }

  /**
   * A keyed fingerprint of a refresh token: tells two tokens apart without storing either or a plain hash
   * of it. `<key id>.<HMAC>`: a fingerprint made under another fingerprint key (that key was lost and made
   * again) is recognised as such and adopted, never taken for a different token.
   */
  private async fingerprint(refreshToken: string): Promise<string> {
    const key = await this.fingerprintKeyOf();
    const id = createHmac('sha256', key).update('fingerprint key id').digest('base64url').slice(0, 8);
    return `${id}.${createHmac('sha256', key).update(refreshToken).digest('base64url')}`;
  }

  /**
   * Seeds the refresh token from config. The token the store was seeded with already (same fingerprint)
   * is kept, rotated or not; a different one (a re-consent) replaces the stored tokens. A store written
   * before fingerprints existed keeps its token and adopts the config's fingerprint. A token replaced
   * earlier (`retired`: a replica still on the old config) is not put back.
   */
  async seed(connectionId: string, refreshToken: string): Promise<SeedOutcome> {
    const r = await REPLACE.run(
      this.redis,
      [this.key(connectionId), `${this.key(connectionId)}:lock`],
      [
        'seed',
        await this.fingerprint(refreshToken),
        this.seal(connectionId, 'refreshToken', refreshToken),
        String(this.now()),
        '',
        '',
      ],
    );
    return (['kept', 'seeded', 'adopted', 'retired', 'replaced'] as const)[r as number] ?? 'seeded';
  }

  /**
   * Puts a new grant's tokens in place (an OAuth consent), fencing a refresh in flight with the old ones.
   * The seed fingerprint stays: the config's old token does not take over again on the next start.
   */
  async replace(connectionId: string, tokens: NewTokens): Promise<void> {
    const access = tokens.accessToken ? this.seal(connectionId, 'accessToken', tokens.accessToken) : '';
    await REPLACE.run(
      this.redis,
      [this.key(connectionId), `${this.key(connectionId)}:lock`],
      [
        'replace',
        '',
        this.seal(connectionId, 'refreshToken', tokens.refreshToken),
        String(this.now()),
        access,
        access ? String(tokens.expiresAt ?? 0) : '',
      ],
    );
  }

  /** Forgets a connection's tokens: the next use seeds them from config again. */
  async reset(connectionId: string): Promise<boolean> {
    const key = this.key(connectionId);
    return (await this.redis.del(key, `${key}:lock`)) > 0;
  }

  /** Current state, for status output: instants and states, never a token. */
  async describe(connectionId: string): Promise<TokenStatus> {
    const h = await this.redis.hgetall(this.key(connectionId));
    const num = (v: string | undefined) => (v ? Number(v) : undefined);
    return {
      hasRefreshToken: Boolean(h.refreshToken),
      hasAccessToken: Boolean(h.accessToken),
      grantedAt: num(h.grantedAt),
      expiresAt: num(h.expiresAt),
      rotatedAt: num(h.rotatedAt),
      failedAt: num(h.failedAt),
      failure: h.failure || undefined,
      sealedUnder: h.refreshToken ? TokenSealer.sealedUnder(h.refreshToken) : undefined,
    };
  }

  /** The token keys the store holds (connections, or groups sharing one grant). */
  async storedKeys(): Promise<string[]> {
    const head = `${this.options.prefix}:token:`;
    const found: string[] = [];
    for await (const keys of scanKeys(this.redis, `${head}*`, { count: 200, type: 'hash' })) {
      found.push(
        ...keys
          .map((k) => k.slice(head.length))
          .map((id) => (this.options.cluster ? id.replace(/^\{(.*)\}$/, '$1') : id)),
      );
    }
    return found.sort();
  }

  /**
   * Re-seals every stored token (and the fingerprint key) under the current key: values sealed under an
   * old key or written in plain text. Each value is swapped only if it is unchanged since it was read, so
   * a refresh running meanwhile (which seals under the current key itself) is never overwritten.
   */
  async rekey(): Promise<{ resealed: number; current: number }> {
    let resealed = 0;
    let current = 0;
    for (const id of await this.storedKeys()) {
      const h = await this.redis.hgetall(this.key(id));
      const args: string[] = [];
      for (const field of SECRET_FIELDS) {
        const stored = h[field];
        if (!stored) continue;
        if (this.sealer.isCurrent(stored)) {
          current++;
          continue;
        }
        // An operator's explicit act: whatever is stored (plain too) is sealed under the current key.
        args.push(field, stored, this.seal(id, field, this.sealer.open(stored, `${id}:${field}`)));
      }
      if (args.length > 0) resealed += (await RESEAL.run(this.redis, [this.key(id)], args)) as number;
    }
    const fpKey = `${this.options.prefix}:token-fingerprint-key`;
    const stored = await this.redis.get(fpKey);
    if (stored && !this.sealer.isCurrent(stored)) {
      const next = this.sealer.seal(this.sealer.open(stored, 'fingerprint-key'), 'fingerprint-key');
      // Its content never changes once made, so a concurrent rekey writes the same plain value: no race to fence.
      await this.redis.set(fpKey, next, 'XX');
    }
    // Every value is sealed now: from here on a plain value can only have been written around the store.
    if (this.sealer.encrypted) await this.redis.set(this.sealedOnlyKey, String(this.now()));
    return { resealed, current };
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
      const access = await this.open(connectionId, 'accessToken', h.accessToken);
      if (access && access !== stale && Number(h.expiresAt ?? 0) - this.skewMs > this.now()) {
        return access;
      }
      const owner = randomUUID();
      const got = await this.redis.set(lockKey, owner, 'PX', this.lockMs, 'NX');
      if (got === 'OK') {
        try {
          // Re-read under the lock: the previous holder may have just refreshed.
          const cur = await this.redis.hgetall(key);
          const curAccess = await this.open(connectionId, 'accessToken', cur.accessToken);
          if (curAccess && curAccess !== stale && Number(cur.expiresAt ?? 0) - this.skewMs > this.now()) {
            return curAccess;
          }
          const refreshToken = await this.open(connectionId, 'refreshToken', cur.refreshToken);
          if (!refreshToken) {
            throw new CredentialsRefusedError(
              `connection ${connectionId}: no refresh token; re-authorise the connection: erp-sync connect --connection ${connectionId}`,
              {
                source: connectionId,
              },
            );
          }
          let r: RefreshResult;
          try {
            r = await refresh(refreshToken, signal);
          } catch (err) {
            if (!(err instanceof AuthError)) throw err;
            // The vendor refused the grant: remembered for status (code and message only; messages never
            // carry tokens), until a refresh works or a new token replaces this one.
            const failure = `${err.code}: ${err.message}`.slice(0, 300);
            await MARK_REFUSED.run(this.redis, [key, lockKey], [owner, String(this.now()), failure]);
            if (err instanceof CredentialsRefusedError) throw err;
            throw new CredentialsRefusedError(err.message, {
              cause: err,
              status: err.status,
              source: err.source,
              operation: err.operation,
            });
          }
          // Sealed every time, also when the vendor kept the refresh token: a plain value from before a
          // key was set is sealed on this write.
          const written = await WRITE_IF_OWNER.run(
            this.redis,
            [key, lockKey],
            [
              owner,
              this.seal(connectionId, 'accessToken', r.accessToken),
              String(this.now() + r.expiresInSeconds * 1000),
              this.seal(connectionId, 'refreshToken', r.refreshToken ?? refreshToken),
              String(this.now()),
            ],
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
        throw new AuthError(`connection ${connectionId}: token refresh did not finish in time`, {
          source: connectionId,
        });
      }
      await this.wait(this.pollMs, signal);
    }
  }
}
