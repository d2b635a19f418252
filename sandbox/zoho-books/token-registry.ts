import type { EmulatorClock } from '../kit/emulator-clock.js';
import type { SeededRandom } from '../kit/seeded-random.js';

/**
 * Zoho Accounts OAuth as the sandbox plays it: `POST /oauth/v2/token` with grant_type=refresh_token issues
 * a 1-hour access token; the refresh token never rotates and never expires.
 * https://www.zoho.com/accounts/protocol/oauth/web-apps/access-token-expiry.html
 *
 * - Failures answer HTTP 200 with `{"error": "..."}` (invalid_client, invalid_client_secret, invalid_code,
 *   unsupported_grant_type), as Zoho Accounts does (community-observed, VERIFY): check the body, not only
 *   the status.
 * - More than `maxRefreshesPerTenMinutes` refreshes of one refresh token within 10 minutes answer HTTP 400
 *   `{"error":"Access Denied","error_description":"You have made too many requests continuously..."}`.
 * - At most 30 live access tokens per refresh token; issuing another revokes the oldest.
 */
export interface TokenCredentials {
  clientId: string;
  clientSecret: string;
  refreshToken: string;
}

export interface TokenRegistryOptions extends TokenCredentials {
  /** @defaultValue 3600 */
  accessTokenTtlSeconds: number;
  /** @defaultValue 10 (0 disables the check) */
  maxRefreshesPerTenMinutes: number;
  /** Where the API lives, returned as `api_domain` (the emulator's own URL). */
  apiDomain: () => string;
}

interface AccessToken {
  token: string;
  expiresAt: number;
  issuedAt: number;
}

const MAX_LIVE_TOKENS = 30;
const SCOPE = 'ZohoBooks.invoices.READ ZohoBooks.creditnotes.READ ZohoBooks.contacts.READ ZohoBooks.settings.READ';

export class TokenRegistry {
  private live: AccessToken[] = [];
  private recentRefreshes: number[] = [];
  /** Successful refresh-token grants (what "refreshed exactly once" counts). */
  refreshCount = 0;
  /** Every call to the token endpoint, successful or not. */
  refreshAttempts = 0;

  constructor(
    private readonly options: TokenRegistryOptions,
    private readonly clock: EmulatorClock,
    private readonly random: SeededRandom,
  ) {}

  get credentials(): TokenCredentials {
    const { clientId, clientSecret, refreshToken } = this.options;
    return { clientId, clientSecret, refreshToken };
  }

  get accessTokenTtlSeconds(): number {
    return this.options.accessTokenTtlSeconds;
  }

  /** Handles the token endpoint's parameters (query string and form body merged). */
  exchange(params: URLSearchParams): { status: number; body: Record<string, unknown> } {
    this.refreshAttempts += 1;
    const o = this.options;
    const grant = params.get('grant_type');
    if (grant !== 'refresh_token') return { status: 200, body: { error: grant === 'authorization_code' ? 'invalid_code' : 'unsupported_grant_type' } };
    if (params.get('client_id') !== o.clientId) return { status: 200, body: { error: 'invalid_client' } };
    if (params.get('client_secret') !== o.clientSecret) return { status: 200, body: { error: 'invalid_client_secret' } };
    if (params.get('refresh_token') !== o.refreshToken) return { status: 200, body: { error: 'invalid_code' } };
    const now = this.clock.now();
    this.recentRefreshes = this.recentRefreshes.filter((t) => t > now - 600_000);
    if (o.maxRefreshesPerTenMinutes > 0 && this.recentRefreshes.length >= o.maxRefreshesPerTenMinutes) {
      return {
        status: 400,
        body: {
          error_description: 'You have made too many requests continuously. Please try again after some time.',
          error: 'Access Denied',
          status: 'failure',
        },
      };
    }
    this.recentRefreshes.push(now);
    this.refreshCount += 1;
    const token = this.issue();
    return { status: 200, body: { access_token: token, scope: SCOPE, api_domain: o.apiDomain(), token_type: 'Bearer', expires_in: o.accessTokenTtlSeconds } };
  }

  /** Issues an access token without counting a refresh (admin/test convenience). */
  issue(ttlSeconds = this.options.accessTokenTtlSeconds): string {
    const now = this.clock.now();
    const token = `1000.${this.random.hex(32)}.${this.random.hex(32)}`;
    this.live.push({ token, issuedAt: now, expiresAt: now + ttlSeconds * 1000 });
    if (this.live.length > MAX_LIVE_TOKENS) this.live.splice(0, this.live.length - MAX_LIVE_TOKENS);
    return token;
  }

  /** True while the token exists and the emulator clock is before its expiry. */
  isValid(token: string): boolean {
    const found = this.live.find((t) => t.token === token);
    return found !== undefined && this.clock.now() < found.expiresAt;
  }

  /** Expires every access token now; returns how many were live. */
  expireAll(): number {
    const now = this.clock.now();
    const n = this.live.filter((t) => t.expiresAt > now).length;
    for (const t of this.live) t.expiresAt = Math.min(t.expiresAt, now);
    return n;
  }

  /** Forgets all access tokens and counters (reset). */
  reset(): void {
    this.live = [];
    this.recentRefreshes = [];
    this.refreshCount = 0;
    this.refreshAttempts = 0;
  }
}
