import type { z } from 'zod';

/** What a code exchange answered: the grant's tokens. */
export interface GrantTokens {
  accessToken: string;
  refreshToken: string;
  expiresInSeconds: number;
}

/** An organisation (Zoho organisation, QuickBooks company, Xero tenant) a grant reaches. */
export interface GrantOrganisation {
  id: string;
  name: string;
}

/** What the authorize URL is built from. */
export interface AuthorizeRequest {
  redirectUri: string;
  state: string;
  /** The S256 challenge, when the flow uses PKCE. */
  codeChallenge?: string;
}

/** What the code exchange needs. */
export interface CodeExchange {
  code: string;
  redirectUri: string;
  /** The PKCE verifier, when the authorize request carried a challenge. */
  codeVerifier?: string;
  /** Every parameter of the callback (QuickBooks' realmId, Zoho's accounts-server). */
  callback: URLSearchParams;
}

/**
 * A vendor's OAuth 2.0 authorization-code flow, as `erp-sync connect` runs it: the URL to send a person to,
 * the code exchange, and which organisations the new grant reaches. Each connector writes its own, with the
 * vendor's documentation URL above each call.
 */
export interface AuthorizationFlow<Settings = any> {
  /**
   * The connection's settings as `connect` reads them: like the connector's own schema, but the
   * organisation setting may be missing (the grant is how one finds it).
   */
  settings: z.ZodType<Settings>;
  /** Whether the authorize request carries a PKCE S256 challenge. */
  pkce: boolean;
  /** The setting naming the organisation (`organizationId`, `realmId`, `tenantId`). */
  organisationSetting: string;
  /** The organisation the config names, if any. */
  configuredOrganisation(settings: Settings): string | undefined;
  authorizeUrl(settings: Settings, request: AuthorizeRequest): string;
  exchange(settings: Settings, exchange: CodeExchange, signal?: AbortSignal): Promise<GrantTokens>;
  /** The organisations the grant reaches (read with its new access token, or from the callback). */
  organisations(
    settings: Settings,
    tokens: GrantTokens,
    callback: URLSearchParams,
    signal?: AbortSignal,
  ): Promise<GrantOrganisation[]>;
  /** Further config lines the callback tells (Zoho's data centre), besides the organisation. */
  extraConfigLines?(settings: Settings, callback: URLSearchParams): string[];
}
