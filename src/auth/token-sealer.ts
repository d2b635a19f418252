import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ConfigError } from '../errors/index.js';

/** Where the token keys come from: the current one, and the ones it replaced (read only, for rekey). */
export const TOKEN_KEY_ENV = 'ERP_SYNC_TOKEN_KEY';
export const OLD_TOKEN_KEYS_ENV = 'ERP_SYNC_TOKEN_KEYS_OLD';

/** What a sealed value starts with; anything else was written in plain text (before keys existed, or without one). */
const SEALED = 'sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const Key = z
  .string()
  .trim()
  .transform((s, ctx) => {
    const bytes = Buffer.from(s, 'base64');
    if (bytes.length !== 32 || bytes.toString('base64').replace(/=+$/, '') !== s.replace(/=+$/, '')) {
      ctx.addIssue({ code: 'custom', message: 'must be 32 random bytes in base64 (e.g. `openssl rand -base64 32`)' });
      return z.NEVER;
    }
    return bytes;
  });

interface TokenKey {
  id: string;
  key: Buffer;
}

/**
 * A key's id, stored with every value sealed under it so a value names the key that opens it (rotation).
 * A digest of the key: the key is 32 random bytes, so the id gives nothing away.
 */
function keyId(key: Buffer): string {
  return createHash('sha256').update('erp-sync token key id\0').update(key).digest('hex').slice(0, 12);
}

/** Where a value belongs: bound into the seal (AES-GCM additional data), so a value moved elsewhere does not open. */
export type SealContext = string;

/**
 * Seals OAuth tokens for Redis with AES-256-GCM under the current key (`ERP_SYNC_TOKEN_KEY`), and opens
 * values sealed under it or an older key (`ERP_SYNC_TOKEN_KEYS_OLD`) or written in plain text. Without a
 * key, values are written in plain text (`encrypted` is false: the worker says so at start).
 *
 * A sealed value: `sealed:v1:<key id>:<base64 of iv | tag | ciphertext>`, the additional data being the
 * value's place (token key and field), so a value copied to another connection or field does not open.
 */
export class TokenSealer {
  private readonly byId: Map<string, Buffer>;

  private constructor(
    private readonly current: TokenKey | undefined,
    old: TokenKey[],
  ) {
    this.byId = new Map([...old, ...(current ? [current] : [])].map((k) => [k.id, k.key]));
  }

  /** The keys from the environment; a malformed key is a ConfigError naming the variable, never its value. */
  static fromEnv(env: NodeJS.ProcessEnv = process.env): TokenSealer {
    const parse = (name: string, value: string): TokenKey => {
      const r = Key.safeParse(value);
      if (!r.success) throw new ConfigError(`${name}: ${r.error.issues[0]?.message ?? 'invalid key'}`);
      return { id: keyId(r.data), key: r.data };
    };
    const current = env[TOKEN_KEY_ENV]?.trim() ? parse(TOKEN_KEY_ENV, env[TOKEN_KEY_ENV]) : undefined;
    const old = (env[OLD_TOKEN_KEYS_ENV] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => parse(OLD_TOKEN_KEYS_ENV, s));
    return new TokenSealer(current, old);
  }

  /** No keys: plain text (tests, and deployments that have not set a key yet). */
  static plain(): TokenSealer {
    return new TokenSealer(undefined, []);
  }

  /** With the given base64 keys (tests, tools). */
  static withKeys(current: string | undefined, old: string[] = []): TokenSealer {
    return TokenSealer.fromEnv({ [TOKEN_KEY_ENV]: current, [OLD_TOKEN_KEYS_ENV]: old.join(',') });
  }

  get encrypted(): boolean {
    return this.current !== undefined;
  }

  /** The id of the key new values are sealed under; undefined: plain text. */
  get currentKeyId(): string | undefined {
    return this.current?.id;
  }

  seal(plain: string, context: SealContext): string {
    if (!this.current) return plain;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${SEALED}${this.current.id}:${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64')}`;
  }

  /**
   * The plain value. A value sealed under a key this process does not hold, or one that does not open
   * (altered, moved, truncated), is an error naming the key id only. `refusePlain` (every value was sealed
   * once: the token store's marker) refuses a plain value while a key is set, so a value written into Redis
   * in plain text cannot stand in for a sealed one.
   */
  open(stored: string, context: SealContext, options: { refusePlain?: boolean } = {}): string {
    if (!stored.startsWith(SEALED)) {
      if (options.refusePlain && this.current) {
        throw new ConfigError(
          `the stored token of ${context} is plain text, but every token was sealed (erp-sync token rekey ran): refused, as only someone writing to Redis around the worker could have put it there; remove it (erp-sync token reset) and connect again, or, if plain values were written on purpose while the key was unset, run erp-sync token rekey`,
        );
      }
      return stored;
    }
    const rest = stored.slice(SEALED.length);
    const colon = rest.indexOf(':');
    const id = rest.slice(0, colon);
    const key = this.byId.get(id);
    if (!key) {
      throw new ConfigError(
        `a stored token is sealed under key ${id}, which is neither ${TOKEN_KEY_ENV} nor in ${OLD_TOKEN_KEYS_ENV}`,
      );
    }
    const raw = Buffer.from(rest.slice(colon + 1), 'base64');
    // Nothing shorter than an IV and a whole tag opens: a shorter tag would be easier to forge.
    if (raw.length < IV_BYTES + TAG_BYTES)
      throw new ConfigError(`a stored token sealed under key ${id} is truncated (shorter than its IV and tag)`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new ConfigError(
        `a stored token sealed under key ${id} does not open (altered, or copied from another place)`,
      );
    }
  }

  /** How a stored value is kept: `plain`, or the id of the key it is sealed under. */
  static sealedUnder(stored: string): string {
    if (!stored.startsWith(SEALED)) return 'plain';
    const rest = stored.slice(SEALED.length);
    return rest.slice(0, rest.indexOf(':'));
  }

  /** Whether a stored value is already sealed under the current key (rekey skips it). */
  isCurrent(stored: string): boolean {
    return TokenSealer.sealedUnder(stored) === (this.current?.id ?? 'plain');
  }
}
