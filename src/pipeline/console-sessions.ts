import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A console session: the name of the token it was opened with, and the CSRF token its pages send back. */
export interface ConsoleSession {
  /** The token's name (`http.tokens[].name`, or `adminToken`): its role and companies are read from the config at each request. */
  name: string;
  csrf: string;
}

/** How long a console session lives without use. @defaultValue 8 hours */
export const CONSOLE_SESSION_TTL_SECONDS = 8 * 3600;

const id = () => randomBytes(32).toString('base64url');

/**
 * The console's sessions, one Redis key each (`<prefix>:console:session:<id>`) with a TTL that each use
 * renews. The browser's cookie holds only the random id; the token it was opened with is never stored,
 * only its name, so a token removed from the config ends its sessions at their next request.
 */
export class ConsoleSessions {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    readonly ttlSeconds = CONSOLE_SESSION_TTL_SECONDS,
  ) {}

  private key(sessionId: string): string {
    return `${this.prefix}:console:session:${sessionId}`;
  }

  /** Opens a session for the token named `name`; resolves with its id (the cookie's value) once Redis has it. */
  async open(name: string): Promise<{ id: string; session: ConsoleSession }> {
    const session: ConsoleSession = { name, csrf: id() };
    const sessionId = id();
    await this.redis.set(this.key(sessionId), JSON.stringify(session), 'EX', this.ttlSeconds);
    return { id: sessionId, session };
  }

  /** The live session of that id (its TTL renewed), or undefined. */
  async get(sessionId: string): Promise<ConsoleSession | undefined> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(sessionId)) return undefined;
    const raw = await this.redis.getex(this.key(sessionId), 'EX', this.ttlSeconds);
    return raw ? (JSON.parse(raw) as ConsoleSession) : undefined;
  }

  async close(sessionId: string): Promise<void> {
    if (/^[A-Za-z0-9_-]{43}$/.test(sessionId)) await this.redis.del(this.key(sessionId));
  }
}
