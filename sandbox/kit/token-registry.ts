import type { EmulatorClock } from './emulator-clock.js';

/**
 * OAuth 2.0 refresh-token grants as the ERP emulators play them (RFC 6749 §6,
 * https://datatracker.ietf.org/doc/html/rfc6749#section-6): live access tokens with an expiry on the
 * emulator clock, and the refresh tokens that are accepted now. What differs per vendor is configured
 * here (rotation, a cap on live access tokens, a cap on refreshes per window); the response bodies and
 * status codes stay in the vendor's adapter, which maps a `GrantOutcome` to its own shape.
 */
/** The sandbox's OAuth client, its first refresh token, and how long an access token lives. */
export interface TokenCredentials {
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  accessTokenTtlSeconds: number;
}

export interface TokenRegistryOptions extends TokenCredentials {
  /** Each refresh issues a new refresh token and the one presented stops working (QuickBooks, Xero). */
  rotateRefreshToken: boolean;
  /** At most this many live access tokens; issuing another revokes the oldest (0: no cap). */
  maxLiveAccessTokens?: number;
  /** At most `max` successful refreshes per `windowMs` (max 0: no cap). */
  refreshLimit?: { max: number; windowMs: number };
  /** Zoho checks the grant type before the client; QuickBooks and Xero the client first. */
  grantTypeFirst?: boolean;
  /** Token text; `n` counts issues from 1. */
  mint: { accessToken(n: number): string; refreshToken?(n: number): string };
}

export interface ClientCredentials {
  clientId?: string;
  clientSecret?: string;
}

export type GrantRefusal = 'invalid_client' | 'unsupported_grant_type' | 'invalid_grant' | 'too_many_refreshes';

export type GrantOutcome =
  | { ok: true; accessToken: string; refreshToken: string; expiresIn: number }
  | { ok: false; error: GrantRefusal; field?: 'clientId' | 'clientSecret' };

export type AccessCheck = 'ok' | 'expired' | 'unknown';

export class TokenRegistry {
  private access: Array<{ token: string; expiresAt: number }> = [];
  private live: string[];
  private recentRefreshes: number[] = [];
  private issued = 0;
  /** Every call to the token endpoint, granted or not. */
  refreshAttempts = 0;
  /** Successful refresh-token grants. */
  refreshCount = 0;
  /** Refused grants, by reason. */
  readonly refused: Record<GrantRefusal, number> = {
    invalid_client: 0,
    unsupported_grant_type: 0,
    invalid_grant: 0,
    too_many_refreshes: 0,
  };

  constructor(
    private readonly options: TokenRegistryOptions,
    private readonly clock: EmulatorClock,
  ) {
    this.live = [options.refreshToken];
  }

  get credentials(): { clientId: string; clientSecret: string; refreshToken: string } {
    const { clientId, clientSecret, refreshToken } = this.options;
    return { clientId, clientSecret, refreshToken };
  }

  get accessTokenTtlSeconds(): number {
    return this.options.accessTokenTtlSeconds;
  }

  /** The refresh tokens accepted now (one; the newest after a rotation). */
  get liveRefreshTokens(): string[] {
    return [...this.live];
  }

  /** Refusals of any reason. */
  get rejected(): number {
    return Object.values(this.refused).reduce((a, b) => a + b, 0);
  }

  /**
   * A refresh-token grant: the client and the grant type (in the vendor's order), then the refresh token,
   * then the refresh cap. `form` holds the token endpoint's parameters; `client` the credentials presented
   * (see `clientOf`).
   */
  grant(form: URLSearchParams, client: ClientCredentials): GrantOutcome {
    this.refreshAttempts += 1;
    const o = this.options;
    const grantOk = form.get('grant_type') === 'refresh_token';
    if (o.grantTypeFirst && !grantOk) return this.refuse('unsupported_grant_type');
    if (client.clientId !== o.clientId) return this.refuse('invalid_client', 'clientId');
    if (client.clientSecret !== o.clientSecret) return this.refuse('invalid_client', 'clientSecret');
    if (!grantOk) return this.refuse('unsupported_grant_type');
    const presented = form.get('refresh_token') ?? '';
    if (!this.live.includes(presented)) return this.refuse('invalid_grant');
    const now = this.clock.now();
    const cap = o.refreshLimit;
    if (cap && cap.max > 0) {
      this.recentRefreshes = this.recentRefreshes.filter((t) => t > now - cap.windowMs);
      if (this.recentRefreshes.length >= cap.max) return this.refuse('too_many_refreshes');
      this.recentRefreshes.push(now);
    }
    this.refreshCount += 1;
    const accessToken = this.issue();
    let refreshToken = presented;
    if (o.rotateRefreshToken && o.mint.refreshToken) {
      refreshToken = o.mint.refreshToken(this.issued);
      this.live = [refreshToken];
    }
    return { ok: true, accessToken, refreshToken, expiresIn: o.accessTokenTtlSeconds };
  }

  /** Issues an access token without a grant (admin endpoints, tests that skip OAuth). */
  issue(ttlSeconds = this.options.accessTokenTtlSeconds): string {
    const token = this.options.mint.accessToken(++this.issued);
    this.access.push({ token, expiresAt: this.clock.now() + ttlSeconds * 1000 });
    const cap = this.options.maxLiveAccessTokens ?? 0;
    if (cap > 0 && this.access.length > cap) this.access.splice(0, this.access.length - cap);
    return token;
  }

  /** Whether an access token is live on the emulator clock. */
  accessStatus(token: string | undefined): AccessCheck {
    const found = token === undefined ? undefined : this.access.find((t) => t.token === token);
    if (!found) return 'unknown';
    return this.clock.now() < found.expiresAt ? 'ok' : 'expired';
  }

  /** Expires every access token now; returns how many were live. */
  expireAll(): number {
    const now = this.clock.now();
    const n = this.access.filter((t) => t.expiresAt > now).length;
    for (const t of this.access) t.expiresAt = Math.min(t.expiresAt, now);
    return n;
  }

  /** A new consent (the user authorised the app again): `refreshToken` is the grant's token from now on, and every earlier one is refused (invalid_grant). */
  consent(refreshToken: string): void {
    this.live = [refreshToken];
  }

  /**
   * A grant from an authorization code (the user consented): a new refresh token and an access token.
   * `keepPrevious` 0: every earlier refresh token is refused from now on (one grant per user and app);
   * n > 0: the earlier ones stay live, at most n of them (the oldest is dropped first).
   */
  newGrant(refreshToken: string, keepPrevious = 0): { accessToken: string; refreshToken: string; expiresIn: number } {
    this.live = keepPrevious > 0 ? [...this.live.slice(-keepPrevious), refreshToken] : [refreshToken];
    return { accessToken: this.issue(), refreshToken, expiresIn: this.options.accessTokenTtlSeconds };
  }

  /** The user revoked the app's access: every refresh token is refused (invalid_grant) until a new consent. */
  revoke(): void {
    this.live = [];
  }

  /** Forgets every access token and counter; the configured refresh token is live again. */
  reset(): void {
    this.access = [];
    this.live = [this.options.refreshToken];
    this.recentRefreshes = [];
    this.refreshAttempts = 0;
    this.refreshCount = 0;
    for (const k of Object.keys(this.refused) as GrantRefusal[]) this.refused[k] = 0;
  }

  private refuse(error: GrantRefusal, field?: 'clientId' | 'clientSecret'): GrantOutcome {
    this.refused[error] += 1;
    return { ok: false, error, ...(field ? { field } : {}) };
  }
}

/** A form-encoded value decoded (RFC 6749 Appendix B: '+' is a space); undefined when its escapes are malformed. */
function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/**
 * The client credentials a token request presents: HTTP Basic wins over form fields. Basic carries the id
 * and secret form-encoded before base64 (RFC 6749 §2.3.1), so each is decoded here: a secret holding '+',
 * ':' or '%' matches only when the client encoded it.
 */
export function clientOf(authorization: string | string[] | undefined, form: URLSearchParams): ClientCredentials {
  const header = Array.isArray(authorization) ? authorization[0] : authorization;
  const basic = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!basic)
    return { clientId: form.get('client_id') ?? undefined, clientSecret: form.get('client_secret') ?? undefined };
  const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return {};
  return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
}

/** The token of an `Authorization: Bearer …` header, if any. */
export function bearerOf(authorization: string | string[] | undefined): string | undefined {
  const header = Array.isArray(authorization) ? authorization[0] : authorization;
  return /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
}
