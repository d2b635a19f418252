import { randomBytes } from 'node:crypto';
import type { AuthorizationCodes } from '../kit/authorization-codes.js';
import type { EmulatorClock } from '../kit/emulator-clock.js';
import type { RouteResult } from '../kit/router.js';
import { clientOf, TokenRegistry, type TokenCredentials } from '../kit/token-registry.js';
import { tidHeaders } from './qbo-fault.js';

/**
 * Intuit OAuth 2.0 as the sandbox plays it: `POST /oauth2/v1/tokens/bearer`, HTTP Basic client auth, form
 * `grant_type=refresh_token&refresh_token=…`.
 * - Each refresh returns a 1-hour access token and a NEW refresh token; the one just used stops working
 *   (stricter than Intuit, which may keep it briefly: it makes lost rotations visible). A stale or unknown
 *   refresh token → 400 `{"error":"invalid_grant"}`; wrong client credentials → 401 `{"error":"invalid_client"}`.
 * - Access tokens stay valid until they expire, also after later refreshes.
 */
export class QboTokenRegistry extends TokenRegistry {
  constructor(options: TokenCredentials, clock: EmulatorClock) {
    super(
      {
        ...options,
        rotateRefreshToken: true,
        mint: {
          accessToken: () => `qbo-at-${randomBytes(12).toString('hex')}`,
          refreshToken: () => `qbo-rt-${randomBytes(16).toString('hex')}`,
        },
      },
      clock,
    );
  }

  /** The live refresh token (tests and the admin API read it; never logged by the connector). */
  get currentRefreshToken(): string {
    return this.liveRefreshTokens[0]!;
  }

  isValid(token: string | undefined): 'ok' | 'expired' | 'unknown' {
    return this.accessStatus(token);
  }

  /**
   * The code exchange (grant_type=authorization_code,
   * https://developer.intuit.com/app/developer/qbo/docs/develop/authentication-and-authorization/oauth-2.0):
   * a new grant whose refresh token replaces the company's earlier one (the sandbox keeps one grant per
   * app and company, so a re-consent makes the previous refresh token answer invalid_grant). A reused,
   * expired or unknown code, or a redirect_uri other than the authorize request's → 400 `{"error":"invalid_grant"}`.
   */
  private redeem(codes: AuthorizationCodes, authorization: string | undefined, form: URLSearchParams): RouteResult {
    const r = codes.redeem(form, clientOf(authorization, new URLSearchParams()));
    if (!r.ok)
      return { status: r.error === 'invalid_client' ? 401 : 400, headers: tidHeaders(), body: { error: r.error } };
    const g = this.newGrant(`qbo-rt-${randomBytes(16).toString('hex')}`);
    return {
      status: 200,
      headers: tidHeaders({ 'cache-control': 'no-store' }),
      body: {
        token_type: 'bearer',
        access_token: g.accessToken,
        expires_in: g.expiresIn,
        refresh_token: g.refreshToken,
        x_refresh_token_expires_in: 8_726_400,
      },
    };
  }

  /** The token endpoint: client credentials only as HTTP Basic, as Intuit requires. */
  handle(authorization: string | undefined, body: unknown, codes?: AuthorizationCodes): RouteResult {
    const form = new URLSearchParams(typeof body === 'string' ? body : '');
    if (codes && form.get('grant_type') === 'authorization_code') return this.redeem(codes, authorization, form);
    const r = this.grant(form, clientOf(authorization, new URLSearchParams()));
    if (!r.ok)
      return { status: r.error === 'invalid_client' ? 401 : 400, headers: tidHeaders(), body: { error: r.error } };
    return {
      status: 200,
      headers: tidHeaders({ 'cache-control': 'no-store' }),
      body: {
        token_type: 'bearer',
        access_token: r.accessToken,
        expires_in: r.expiresIn,
        refresh_token: r.refreshToken,
        x_refresh_token_expires_in: 8_726_400,
      },
    };
  }
}
