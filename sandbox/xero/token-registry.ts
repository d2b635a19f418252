import { randomBytes } from 'node:crypto';
import type { AuthorizationCodes } from '../kit/authorization-codes.js';
import type { EmulatorClock } from '../kit/emulator-clock.js';
import type { RouteResult } from '../kit/router.js';
import type { SeededRandom } from '../kit/seeded-random.js';
import { bearerOf, clientOf, TokenRegistry, type TokenCredentials } from '../kit/token-registry.js';

export type { TokenCredentials };
import { xeroErrors } from './xero-errors.js';

/**
 * Xero OAuth 2.0 as the connector meets it: `POST /connect/token` with `grant_type=refresh_token`, client
 * credentials as HTTP Basic or as `client_id`/`client_secret` form fields. Each refresh answers a new access
 * token (`expires_in` 1800) AND a new refresh token; the one presented is spent: presenting it again
 * answers 400 `{"error":"invalid_grant"}` (single-use rotation with no grace period: stricter than Xero,
 * which lets a used refresh token be retried for 30 minutes, so a lost rotation shows at once). Access
 * tokens are valid for every organisation of the sandbox (one token, many tenants).
 * https://developer.xero.com/documentation/api-guides/machine-2-machine
 */
export type TokenCheck = 'ok' | 'missing' | 'invalid' | 'expired';

export class XeroTokenRegistry extends TokenRegistry {
  constructor(credentials: TokenCredentials, clock: EmulatorClock, rng: SeededRandom) {
    super(
      {
        ...credentials,
        rotateRefreshToken: true,
        mint: { accessToken: (n) => `xero-at-${n}-${rng.hex(24)}`, refreshToken: (n) => `xero-rt-${n}-${rng.hex(24)}` },
      },
      clock,
    );
  }

  get stats(): { refreshes: number; invalidGrants: number; invalidClients: number } {
    return {
      refreshes: this.refreshCount,
      invalidGrants: this.refused.invalid_grant,
      invalidClients: this.refused.invalid_client,
    };
  }

  check(authorization: string | string[] | undefined): TokenCheck {
    const token = bearerOf(authorization);
    if (token === undefined) return 'missing';
    const found = this.accessStatus(token);
    return found === 'unknown' ? 'invalid' : found;
  }

  /**
   * The tenants the live grant reaches (`GET /connections` lists them): every organisation for the grant
   * the sandbox starts with, the ones the user ticked for a grant from the consent page.
   */
  authorisedTenants: string[] | null = null;

  /**
   * The code exchange (grant_type=authorization_code, PKCE verified when the authorize request carried a
   * challenge: https://developer.xero.com/documentation/guides/oauth2/auth-flow/,
   * https://developer.xero.com/documentation/guides/oauth2/pkce-flow/). The new grant replaces the earlier
   * one: its refresh token answers invalid_grant from now on. A reused, expired or unknown code, a
   * redirect_uri or code_verifier that does not match → 400 `{"error":"invalid_grant"}`
   * (https://developer.xero.com/documentation/guides/oauth2/troubleshooting/).
   */
  private redeem(
    codes: AuthorizationCodes,
    form: URLSearchParams,
    authorization: string | string[] | undefined,
  ): RouteResult {
    const r = codes.redeem(form, clientOf(authorization, form));
    if (!r.ok) return xeroErrors.oauth(400, r.error);
    const g = this.newGrant(`xero-rt-grant-${randomBytes(20).toString('hex')}`);
    this.authorisedTenants = r.organisations;
    return {
      status: 200,
      body: {
        access_token: g.accessToken,
        expires_in: g.expiresIn,
        token_type: 'Bearer',
        refresh_token: g.refreshToken,
        scope: 'offline_access accounting.invoices.read accounting.contacts.read accounting.settings.read',
      },
    };
  }

  override reset(): void {
    super.reset();
    this.authorisedTenants = null;
  }

  /** Handles the token endpoint's form body. */
  token(rawBody: string, authorization: string | string[] | undefined, codes?: AuthorizationCodes): RouteResult {
    const form = new URLSearchParams(rawBody);
    if (codes && form.get('grant_type') === 'authorization_code') return this.redeem(codes, form, authorization);
    const r = this.grant(form, clientOf(authorization, form));
    if (!r.ok) return xeroErrors.oauth(400, r.error === 'too_many_refreshes' ? 'invalid_request' : r.error);
    return {
      status: 200,
      body: {
        access_token: r.accessToken,
        expires_in: r.expiresIn,
        token_type: 'Bearer',
        refresh_token: r.refreshToken,
        scope: 'offline_access accounting.invoices.read accounting.contacts.read accounting.settings.read',
      },
    };
  }
}
