import type { Redis } from 'ioredis';
import type { TokenSealer } from '../auth/token-sealer.js';
import { sha256Hex } from './content-hash.js';

/** An authorisation a console session started and the vendor has not yet answered. */
export interface ConsentPending {
  phase: 'consent';
  connection: string;
  /** sha256 of the console session id that started it: only that session may finish it. */
  session: string;
  /** The token name that started it (the audit log's who). */
  who: string;
  redirectUri: string;
  /** The PKCE verifier, when the flow sends a challenge. */
  verifier?: string;
}

/** A grant the vendor gave that reaches several organisations: held, sealed, until the person chooses one. */
export interface ChoicePending {
  phase: 'choose';
  connection: string;
  session: string;
  who: string;
  organisations: Array<{ id: string; name: string }>;
  /** The grant's tokens as JSON, sealed as the token store seals (plain text without a token key). */
  sealedGrant: string;
  /** Lines the callback told besides the organisation (Zoho's data centre). */
  extraConfigLines: string[];
}

export type PendingAuthorization = ConsentPending | ChoicePending;

/** What `takeOwn` found: nothing, another session's authorisation (left in place), or this session's (taken). */
export type OwnTake =
  | { found: false }
  | { found: true; own: false; connection: string }
  | { found: true; own: true; pending: PendingAuthorization };

/** How long a started authorisation (or a grant awaiting its organisation) waits. @defaultValue 10 minutes */
export const PENDING_AUTHORIZATION_TTL_SECONDS = 600;

/**
 * The console's authorisations in flight, one Redis key each under the sha256 of their `state`
 * (`<prefix>:console:oauth:<hash>`), with a TTL. A record is taken (read and deleted at once) when the
 * browser comes back, so a `state` works once; a grant awaiting its organisation is put back under the same
 * state, its tokens sealed under the token key with the state's hash as their place.
 */
export class PendingAuthorizations {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly sealer: TokenSealer,
    readonly ttlSeconds = PENDING_AUTHORIZATION_TTL_SECONDS,
  ) {}

  private key(state: string): string {
    return `${this.prefix}:console:oauth:${sha256Hex(state)}`;
  }

  async put(state: string, pending: PendingAuthorization): Promise<void> {
    await this.redis.set(this.key(state), JSON.stringify(pending), 'EX', this.ttlSeconds);
  }

  /** The pending authorisation of `state`, deleted as it is read (a state works once), or undefined. */
  async take(state: string): Promise<PendingAuthorization | undefined> {
    if (state.length === 0 || state.length > 200) return undefined;
    const raw = await this.redis.getdel(this.key(state));
    return raw ? (JSON.parse(raw) as PendingAuthorization) : undefined;
  }

  /**
   * The pending authorisation of `state`, taken only if `session` started it: another session presenting the
   * state is refused and the record stays (so a leaked state cannot burn the consent of the session that
   * started it). The GETDEL after the check still makes a state work once when its own session races itself.
   */
  async takeOwn(state: string, session: string): Promise<OwnTake> {
    if (state.length === 0 || state.length > 200) return { found: false };
    const seen = await this.redis.get(this.key(state));
    if (!seen) return { found: false };
    const p = JSON.parse(seen) as PendingAuthorization;
    if (p.session !== session) return { found: true, own: false, connection: p.connection };
    const raw = await this.redis.getdel(this.key(state));
    if (!raw) return { found: false };
    const taken = JSON.parse(raw) as PendingAuthorization;
    return taken.session === session
      ? { found: true, own: true, pending: taken }
      : { found: true, own: false, connection: taken.connection };
  }

  seal(state: string, grant: unknown): string {
    return this.sealer.seal(JSON.stringify(grant), `console-oauth:${sha256Hex(state)}`);
  }

  open(state: string, sealed: string): unknown {
    return JSON.parse(this.sealer.open(sealed, `console-oauth:${sha256Hex(state)}`));
  }
}
