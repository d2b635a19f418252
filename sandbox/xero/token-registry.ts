import type { RouteResult } from '../kit/router.js';
import type { EmulatorClock } from '../kit/emulator-clock.js';
import type { SeededRandom } from '../kit/seeded-random.js';
import { xeroErrors } from './xero-errors.js';

/**
 * Xero OAuth 2.0 as the connector meets it (reference §3.1, trap 16): `POST /connect/token` with
 * `grant_type=refresh_token`, client credentials as HTTP Basic or as `client_id`/`client_secret` form
 * fields. Each refresh answers a new access token (`expires_in` 1800) AND a new refresh token; the one
 * presented is spent: presenting it again answers 400 `{"error":"invalid_grant"}` (single-use rotation, no
 * grace period). Access tokens are valid for every organisation of the sandbox (one token, many tenants).
 */
export interface TokenCredentials {
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  accessTokenTtlSeconds: number;
}

export type TokenCheck = 'ok' | 'missing' | 'invalid' | 'expired';

export class XeroTokenRegistry {
  private access = new Map<string, number>();
  private live = new Set<string>();
  private spent = new Set<string>();
  private counter = 0;
  readonly stats = { refreshes: 0, invalidGrants: 0, invalidClients: 0 };

  constructor(
    readonly credentials: TokenCredentials,
    private readonly clock: EmulatorClock,
    private readonly rng: SeededRandom,
  ) {
    this.live.add(credentials.refreshToken);
  }

  /** The refresh tokens that would be accepted now (admin view, tests). */
  get liveRefreshTokens(): string[] {
    return [...this.live];
  }

  check(authorization: string | string[] | undefined): TokenCheck {
    const header = Array.isArray(authorization) ? authorization[0] : authorization;
    const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
    if (!m) return 'missing';
    const expiresAt = this.access.get(m[1]!);
    if (expiresAt === undefined) return 'invalid';
    return this.clock.now() >= expiresAt ? 'expired' : 'ok';
  }

  /** Handles the token endpoint's form body. */
  token(rawBody: string, authorization: string | string[] | undefined): RouteResult {
    const form = new URLSearchParams(rawBody);
    let clientId = form.get('client_id') ?? undefined;
    let clientSecret = form.get('client_secret') ?? undefined;
    const header = Array.isArray(authorization) ? authorization[0] : authorization;
    const basic = /^Basic\s+(\S+)$/i.exec(header ?? '');
    if (basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      clientId = decoded.slice(0, colon);
      clientSecret = decoded.slice(colon + 1);
    }
    if (clientId !== this.credentials.clientId || clientSecret !== this.credentials.clientSecret) {
      this.stats.invalidClients++;
      return xeroErrors.oauth(400, 'invalid_client');
    }
    if (form.get('grant_type') !== 'refresh_token') return xeroErrors.oauth(400, 'unsupported_grant_type');
    const presented = form.get('refresh_token') ?? '';
    if (!this.live.has(presented)) {
      this.stats.invalidGrants++;
      return xeroErrors.oauth(400, 'invalid_grant');
    }
    this.live.delete(presented);
    this.spent.add(presented);
    const n = ++this.counter;
    const accessToken = `xero-at-${n}-${this.rng.hex(24)}`;
    const refreshToken = `xero-rt-${n}-${this.rng.hex(24)}`;
    this.access.set(accessToken, this.clock.now() + this.credentials.accessTokenTtlSeconds * 1000);
    this.live.add(refreshToken);
    this.stats.refreshes++;
    return {
      status: 200,
      body: {
        access_token: accessToken,
        expires_in: this.credentials.accessTokenTtlSeconds,
        token_type: 'Bearer',
        refresh_token: refreshToken,
        scope: 'offline_access accounting.invoices.read accounting.contacts.read accounting.settings.read',
      },
    };
  }

  /** Test hook: every access token issued so far expires now. */
  expireAll(): number {
    const now = this.clock.now();
    for (const k of this.access.keys()) this.access.set(k, now);
    return this.access.size;
  }

  reset(): void {
    this.access.clear();
    this.live = new Set([this.credentials.refreshToken]);
    this.spent.clear();
    this.stats.refreshes = 0;
    this.stats.invalidGrants = 0;
    this.stats.invalidClients = 0;
  }
}
