import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { safeEqual } from '../http/safe-equal.js';
import type { StateKeys } from './keys.js';

/** `<connection>.<43 characters of base64url>`: the connection it is for, then 32 random bytes. */
const CREDENTIAL = /^([a-z0-9][a-z0-9-]{0,39})\.([A-Za-z0-9_-]{43})$/;

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/**
 * Each connection's agent credential: what an agent beside the source presents to push batches. Made here
 * once, shown once to whoever made it, and stored only as its SHA-256 (with when it was made): Redis never
 * holds anything that would let a reader push as the agent. Making a new one replaces the old; revoking it
 * leaves none, and the agent is refused until a new one is made.
 */
export class AgentCredentials {
  constructor(
    private readonly redis: Redis,
    private readonly keys: Pick<StateKeys, 'agentCredential'>,
  ) {}

  /** A new credential for the connection, returned once; any earlier one stops working. */
  async create(connection: string): Promise<{ credential: string; createdAt: string }> {
    const credential = `${connection}.${randomBytes(32).toString('base64url')}`;
    const createdAt = new Date().toISOString();
    await this.redis.hset(this.keys.agentCredential(connection), { sha256: sha256(credential), createdAt });
    return { credential, createdAt };
  }

  /** True when there was one to revoke. */
  async revoke(connection: string): Promise<boolean> {
    return (await this.redis.del(this.keys.agentCredential(connection))) === 1;
  }

  /** When the connection's credential was made, or undefined when it has none. */
  async createdAt(connection: string): Promise<string | undefined> {
    return (await this.redis.hget(this.keys.agentCredential(connection), 'createdAt')) ?? undefined;
  }

  /**
   * The connection a presented credential is for, or undefined. The comparison is of hashes in constant
   * time (safe-equal.ts), and one is made even when the connection has no credential, so the answer's time
   * does not say which connections have one.
   */
  async verify(presented: string): Promise<string | undefined> {
    const m = CREDENTIAL.exec(presented);
    const connection = m?.[1];
    const stored = connection ? await this.redis.hget(this.keys.agentCredential(connection), 'sha256') : null;
    const ok = safeEqual(sha256(presented), stored ?? '');
    return ok && stored !== null ? connection : undefined;
  }
}
