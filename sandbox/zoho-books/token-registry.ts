import { randomBytes } from 'node:crypto';
import type { AuthorizationCodes } from '../kit/authorization-codes.js';
import type { EmulatorClock } from '../kit/emulator-clock.js';
import type { SeededRandom } from '../kit/seeded-random.js';
import { TokenRegistry, type TokenCredentials } from '../kit/token-registry.js';

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
export interface ZohoTokenOptions extends TokenCredentials {
  /** @defaultValue 10 (0 disables the check) */
  maxRefreshesPerTenMinutes: number;
  /** Where the API lives, returned as `api_domain` (the emulator's own URL). */
  apiDomain: () => string;
}

const SCOPE = 'ZohoBooks.invoices.READ ZohoBooks.creditnotes.READ ZohoBooks.contacts.READ ZohoBooks.settings.READ';

export class ZohoTokenRegistry extends TokenRegistry {
  constructor(
    private readonly zoho: ZohoTokenOptions,
    clock: EmulatorClock,
    random: SeededRandom,
  ) {
    super(
      {
        ...zoho,
        rotateRefreshToken: false,
        grantTypeFirst: true,
        maxLiveAccessTokens: 30,
        refreshLimit: { max: zoho.maxRefreshesPerTenMinutes, windowMs: 600_000 },
        mint: { accessToken: () => `1000.${random.hex(32)}.${random.hex(32)}` },
      },
      clock,
    );
  }

  /** True while the token exists and the emulator clock is before its expiry. */
  isValid(token: string): boolean {
    return this.accessStatus(token) === 'ok';
  }

  /**
   * A code exchange (grant_type=authorization_code,
   * https://www.zoho.com/accounts/protocol/oauth/web-apps/access-token.html): a new refresh token, and the
   * user's earlier ones stay live (Zoho keeps up to 20 refresh tokens per user and app, dropping the
   * oldest: https://www.zoho.com/accounts/protocol/oauth/token-limits.html). A refused code answers HTTP
   * 200 `{"error":"invalid_code"}`, as Zoho does (also for a reused code, a redirect_uri or code_verifier
   * that does not match).
   */
  redeem(codes: AuthorizationCodes, params: URLSearchParams): { status: number; body: Record<string, unknown> } {
    const r = codes.redeem(params, {
      clientId: params.get('client_id') ?? undefined,
      clientSecret: params.get('client_secret') ?? undefined,
    });
    if (!r.ok) {
      if (r.error === 'invalid_client')
        return {
          status: 200,
          body: { error: r.field === 'clientSecret' ? 'invalid_client_secret' : 'invalid_client' },
        };
      return { status: 200, body: { error: 'invalid_code' } };
    }
    const g = this.newGrant(`1000.${randomBytes(16).toString('hex')}.${randomBytes(16).toString('hex')}`, 19);
    return {
      status: 200,
      body: {
        access_token: g.accessToken,
        refresh_token: g.refreshToken,
        scope: SCOPE,
        api_domain: this.zoho.apiDomain(),
        token_type: 'Bearer',
        expires_in: g.expiresIn,
      },
    };
  }

  /** Handles the token endpoint's parameters (query string and form body merged). */
  exchange(params: URLSearchParams, codes?: AuthorizationCodes): { status: number; body: Record<string, unknown> } {
    if (codes && params.get('grant_type') === 'authorization_code' && params.has('code'))
      return this.redeem(codes, params);
    const r = this.grant(params, {
      clientId: params.get('client_id') ?? undefined,
      clientSecret: params.get('client_secret') ?? undefined,
    });
    if (r.ok) {
      return {
        status: 200,
        body: {
          access_token: r.accessToken,
          scope: SCOPE,
          api_domain: this.zoho.apiDomain(),
          token_type: 'Bearer',
          expires_in: r.expiresIn,
        },
      };
    }
    if (r.error === 'too_many_refreshes') {
      return {
        status: 400,
        body: {
          error_description: 'You have made too many requests continuously. Please try again after some time.',
          error: 'Access Denied',
          status: 'failure',
        },
      };
    }
    if (r.error === 'unsupported_grant_type')
      return {
        status: 200,
        body: { error: params.get('grant_type') === 'authorization_code' ? 'invalid_code' : 'unsupported_grant_type' },
      };
    if (r.error === 'invalid_client')
      return { status: 200, body: { error: r.field === 'clientSecret' ? 'invalid_client_secret' : 'invalid_client' } };
    return { status: 200, body: { error: 'invalid_code' } };
  }
}
