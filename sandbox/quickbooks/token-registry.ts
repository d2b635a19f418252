import { randomBytes } from 'node:crypto';
import type { RouteResult } from '../kit/router.js';
import type { EmulatorClock } from '../kit/emulator-clock.js';
import { tidHeaders } from './qbo-fault.js';

/**
 * Intuit OAuth 2.0 as the sandbox plays it (reference §2.1, trap 16 [Q3][Q10]):
 * `POST /oauth2/v1/tokens/bearer`, HTTP Basic client auth, form `grant_type=refresh_token&refresh_token=…`.
 * - Each refresh returns a 1-hour access token and a NEW refresh token; the one just used stops working
 *   (stricter than Intuit, which may keep it briefly: it makes lost rotations visible). A stale or unknown
 *   refresh token → 400 `{"error":"invalid_grant"}`; wrong client credentials → 401 `{"error":"invalid_client"}`.
 * - Access tokens stay valid until they expire, also after later refreshes.
 */
export interface TokenOptions {
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  accessTokenTtlSeconds: number;
}

export class TokenRegistry {
  private refreshToken: string;
  private readonly access = new Map<string, number>();
  refreshCount = 0;
  refreshAttempts = 0;
  rejected = 0;

  constructor(
    private readonly options: TokenOptions,
    private readonly clock: EmulatorClock,
  ) {
    this.refreshToken = options.refreshToken;
  }

  /** The live refresh token (tests and the admin API read it; never logged by the connector). */
  get currentRefreshToken(): string {
    return this.refreshToken;
  }

  /** Issues an access token directly (tests that skip OAuth). */
  issue(ttlSeconds = this.options.accessTokenTtlSeconds): string {
    const token = `qbo-at-${randomBytes(12).toString('hex')}`;
    this.access.set(token, this.clock.now() + ttlSeconds * 1000);
    return token;
  }

  isValid(token: string | undefined): 'ok' | 'expired' | 'unknown' {
    if (!token) return 'unknown';
    const exp = this.access.get(token);
    if (exp === undefined) return 'unknown';
    return exp > this.clock.now() ? 'ok' : 'expired';
  }

  expireAll(): number {
    for (const t of this.access.keys()) this.access.set(t, 0);
    return this.access.size;
  }

  handle(authorization: string | undefined, body: unknown): RouteResult {
    this.refreshAttempts += 1;
    const form = new URLSearchParams(typeof body === 'string' ? body : '');
    const expected = `Basic ${Buffer.from(`${this.options.clientId}:${this.options.clientSecret}`).toString('base64')}`;
    if (authorization !== expected) return this.refuse(401, 'invalid_client');
    if (form.get('grant_type') !== 'refresh_token') return this.refuse(400, 'unsupported_grant_type');
    if (form.get('refresh_token') !== this.refreshToken) return this.refuse(400, 'invalid_grant');
    this.refreshCount += 1;
    this.refreshToken = `qbo-rt-${randomBytes(16).toString('hex')}`;
    const ttl = this.options.accessTokenTtlSeconds;
    return {
      status: 200,
      headers: tidHeaders({ 'cache-control': 'no-store' }),
      body: { token_type: 'bearer', access_token: this.issue(ttl), expires_in: ttl, refresh_token: this.refreshToken, x_refresh_token_expires_in: 8_726_400 },
    };
  }

  private refuse(status: number, error: string): RouteResult {
    this.rejected += 1;
    return { status, headers: tidHeaders(), body: { error } };
  }
}
