import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { TokenSealer } from '../auth/token-sealer.js';
import { safeEqual } from '../http/safe-equal.js';

/** A console session as Redis holds it: never the session id, the token or the CSRF token. */
export interface StoredSession {
  /** The token's name (`http.tokens[].name`, or `adminToken`): its role and companies are read from the config at each request. */
  name: string;
  /** A keyed fingerprint (HMAC-SHA256 under the deployment's session key) of the token's value at sign-in. */
  fingerprint: string;
  /** When it was signed in (epoch ms): the absolute lifetime counts from here. */
  signedInAt: number;
}

/** A live session: what Redis holds, and the CSRF token its pages send back (derived from the id, never stored). */
export interface ConsoleSession extends StoredSession {
  csrf: string;
}

/** How long a console session lives without use. @defaultValue 8 hours */
export const CONSOLE_SESSION_TTL_SECONDS = 8 * 3600;
/** How long a console session lives after its sign-in, used or not. @defaultValue 12 hours */
export const CONSOLE_SESSION_MAX_SECONDS = 12 * 3600;

export interface ConsoleSessionOptions {
  /** Seals the session key at rest, like OAuth tokens (ERP_SYNC_TOKEN_KEY). @defaultValue plain text */
  sealer?: TokenSealer;
  /** Idle lifetime. @defaultValue CONSOLE_SESSION_TTL_SECONDS */
  ttlSeconds?: number;
  /** Absolute lifetime from sign-in. @defaultValue CONSOLE_SESSION_MAX_SECONDS */
  maxSeconds?: number;
  now?: () => number;
}

const newId = () => randomBytes(32).toString('base64url');
const isId = (s: string) => /^[A-Za-z0-9_-]{43}$/.test(s);
/** The name a session is stored under: a domain-separated sha256 of its id, so Redis never holds a usable cookie. */
const storedIdOf = (sessionId: string) =>
  createHash('sha256').update('erp-sync console session v1\0').update(sessionId).digest('base64url');
/** A session's CSRF token: an HMAC keyed by the session id, so only the holder of the cookie can know it. */
const csrfOf = (sessionId: string) =>
  createHmac('sha256', sessionId).update('erp-sync console csrf v1').digest('base64url');
/** A keyed fingerprint of a token's value: tells a rotated token from the one signed in with, storing neither. */
const fingerprintOf = (key: Buffer, token: string) =>
  createHmac('sha256', key).update('erp-sync console token v1\0').update(token).digest('base64url');

/**
 * The console's sessions (docs/console.md), one Redis key each, `<prefix>:console:session:<sha256 of the id>`,
 * and per token name the set of its sessions (`<prefix>:console:sessions-of:<name>`) so they can be ended
 * together. The browser's cookie holds only the random id. A session records the token's name and a keyed
 * fingerprint of its value: a token removed from the config, or given a new value (rotated), ends its
 * sessions at their next request. It lives `ttlSeconds` after its last use, and never more than
 * `maxSeconds` after its sign-in.
 */
export class ConsoleSessions {
  readonly ttlSeconds: number;
  readonly maxSeconds: number;
  private readonly sealer: TokenSealer;
  private readonly now: () => number;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    options: ConsoleSessionOptions = {},
  ) {
    this.ttlSeconds = options.ttlSeconds ?? CONSOLE_SESSION_TTL_SECONDS;
    this.maxSeconds = options.maxSeconds ?? CONSOLE_SESSION_MAX_SECONDS;
    this.sealer = options.sealer ?? TokenSealer.plain();
    this.now = options.now ?? Date.now;
  }

  private key(storedId: string): string {
    return `${this.prefix}:console:session:${storedId}`;
  }

  private indexKey(name: string): string {
    return `${this.prefix}:console:sessions-of:${name}`;
  }

  /**
   * The deployment's session key: 32 random bytes made once per Redis prefix (the first process wins),
   * sealed like the OAuth tokens. Read at each use, never kept in the process: a key lost and made again
   * ends every session at once (their fingerprints no longer match), on every worker alike.
   */
  private async sessionKey(): Promise<Buffer | undefined> {
    const raw = await this.redis.get(`${this.prefix}:console:session-key`);
    return raw === null ? undefined : Buffer.from(this.sealer.open(raw, 'console-session-key'), 'base64');
  }

  private async makeSessionKey(): Promise<Buffer> {
    const sealed = this.sealer.seal(randomBytes(32).toString('base64'), 'console-session-key');
    await this.redis.set(`${this.prefix}:console:session-key`, sealed, 'NX');
    const key = await this.sessionKey();
    if (!key) throw new Error('the console session key vanished from Redis');
    return key;
  }

  /** Opens a session for the token `token` named `name`; resolves with its id (the cookie's value) once Redis has it. */
  async open(name: string, token: string): Promise<{ id: string; session: ConsoleSession }> {
    const fingerprint = fingerprintOf(await this.makeSessionKey(), token);
    const stored: StoredSession = { name, fingerprint, signedInAt: this.now() };
    const id = newId();
    const storedId = storedIdOf(id);
    await Promise.all([
      this.redis.set(this.key(storedId), JSON.stringify(stored), 'EX', this.ttlSeconds),
      this.redis.sadd(this.indexKey(name), storedId),
      // Every member lives at most maxSeconds from its own sign-in, so the set may go that long after the latest.
      this.redis.expire(this.indexKey(name), this.maxSeconds),
    ]);
    return { id, session: { ...stored, csrf: csrfOf(id) } };
  }

  /**
   * The live session of that id, its idle lifetime renewed (never past its absolute end), when the token
   * `tokenOf` names for it (the configured value of that name, now) is still the one it was signed in
   * with; else undefined, and a session that ended is deleted.
   */
  async get(sessionId: string, tokenOf: (name: string) => string | undefined): Promise<ConsoleSession | undefined> {
    if (!isId(sessionId)) return undefined;
    const storedId = storedIdOf(sessionId);
    const [raw, key] = await Promise.all([this.redis.get(this.key(storedId)), this.sessionKey()]);
    if (raw === null) return undefined;
    const stored = JSON.parse(raw) as StoredSession;
    const leftMs = stored.signedInAt + this.maxSeconds * 1000 - this.now();
    const token = tokenOf(stored.name);
    if (leftMs <= 0 || !key || token === undefined || !safeEqual(stored.fingerprint, fingerprintOf(key, token))) {
      await this.end(storedId, stored.name);
      return undefined;
    }
    await this.redis.pexpire(this.key(storedId), Math.min(this.ttlSeconds * 1000, leftMs));
    return { ...stored, csrf: csrfOf(sessionId) };
  }

  /** True when `presented` is the CSRF token of session `sessionId` (constant-time). */
  static csrfMatches(sessionId: string, presented: string): boolean {
    return safeEqual(csrfOf(sessionId), presented);
  }

  async close(sessionId: string): Promise<void> {
    if (!isId(sessionId)) return;
    const storedId = storedIdOf(sessionId);
    const raw = await this.redis.get(this.key(storedId));
    if (raw !== null) await this.end(storedId, (JSON.parse(raw) as StoredSession).name);
  }

  /** Ends every session of the token named `name` (signed in with any of its values); resolves with how many were live. */
  async endAllOf(name: string): Promise<number> {
    const storedIds = await this.redis.smembers(this.indexKey(name));
    const ended = await Promise.all(storedIds.map((s) => this.redis.del(this.key(s))));
    await this.redis.del(this.indexKey(name));
    return ended.reduce((n, d) => n + d, 0);
  }

  private async end(storedId: string, name: string): Promise<void> {
    await Promise.all([this.redis.del(this.key(storedId)), this.redis.srem(this.indexKey(name), storedId)]);
  }
}
