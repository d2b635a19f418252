import type { z } from 'zod';
import { type ErrorTable, type ResponseObserver, VendorClient } from '../http/vendor-client.js';
import type { RetryPolicy } from '../http/with-retry.js';

/** The grants a connector asks a token endpoint for (RFC 6749 §6 and §4.1.3). */
export type TokenGrant =
  | { grant_type: 'refresh_token'; refresh_token: string }
  | { grant_type: 'authorization_code'; code: string; redirect_uri: string; code_verifier?: string };

/** What every token answer carries; a vendor's schema adds its own fields (Zoho's `api_domain`). */
export interface TokenFields {
  access_token: string;
  expires_in: number;
  refresh_token?: string;
}

export interface TokenEndpointOptions {
  vendor: string;
  /** The token endpoint's absolute URL. */
  url: string;
  /** The label of the call in metrics and errors, e.g. "POST /connect/token". */
  endpoint: string;
  clientId: string;
  clientSecret: string;
  /**
   * How the client authenticates (RFC 6749 §2.3.1): `basic` sends HTTP Basic over the form-encoded id and
   * secret; `body` sends `client_id` and `client_secret` as form fields.
   */
  clientAuth: 'basic' | 'body';
  /** Each refresh answers a new refresh token and spends the one presented (QuickBooks, Xero). */
  rotatesRefreshToken: boolean;
  errorTable: ErrorTable;
  timeoutMs?: number;
  onResponse?: ResponseObserver;
  /** Backoffs of a retried refresh (tests shorten them). */
  backoff?: Pick<RetryPolicy, 'minTimeoutMs' | 'maxTimeoutMs'>;
}

/** Posts one grant and answers the token response `schema` parsed. */
export type TokenEndpoint = <T extends z.ZodType<TokenFields>>(
  grant: TokenGrant,
  schema: T,
  signal?: AbortSignal,
) => Promise<z.output<T>>;

/** A value as application/x-www-form-urlencoded writes it (RFC 6749 Appendix B): space as '+', the rest percent-encoded. */
export function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice('v='.length);
}

/** The `Authorization` value of HTTP Basic client auth: id and secret form-encoded, then base64 (RFC 6749 §2.3.1). */
export function basicClientAuth(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`).toString('base64')}`;
}

/**
 * The retry rule of a token call, owned here so every connector gets the same:
 * - a code exchange is never retried: a code is single-use, and an answer lost in transit spent it;
 * - a refresh at a vendor that rotates refresh tokens is never retried in-process either: a refresh whose
 *   answer was lost may already have rotated the token, so the token store's lock is released and the
 *   job's own retry starts over from the stored token;
 * - a refresh at a vendor that does not rotate is retried briefly (the same token stays good).
 */
export function tokenRetryPolicy(
  grant: TokenGrant['grant_type'],
  options: Pick<TokenEndpointOptions, 'rotatesRefreshToken' | 'backoff'>,
): RetryPolicy {
  if (grant !== 'refresh_token' || options.rotatesRefreshToken) return { retries: 0 };
  return {
    retries: 2,
    minTimeoutMs: options.backoff?.minTimeoutMs ?? 250,
    maxTimeoutMs: options.backoff?.maxTimeoutMs ?? 2_000,
    maxRetryTimeMs: 10_000,
  };
}

/**
 * One OAuth 2.0 token endpoint: the refresh and the code exchange of every connector go through it. Calls
 * are anonymous (no bearer token) and take no quota slot: token calls do not count against the API's.
 */
export function oauthTokenEndpoint(options: TokenEndpointOptions): TokenEndpoint {
  const url = new URL(options.url);
  // got wants a prefix plus a relative path: split the URL at its last segment.
  const cut = url.pathname.lastIndexOf('/');
  const path = url.pathname.slice(cut + 1);
  const clientFor = (grant: TokenGrant['grant_type']) =>
    new VendorClient({
      vendor: options.vendor,
      prefixUrl: `${url.origin}${url.pathname.slice(0, cut)}`,
      errorTable: options.errorTable,
      retry: tokenRetryPolicy(grant, options),
      timeoutMs: options.timeoutMs,
      onResponse: options.onResponse,
    });
  const clients = { refresh_token: clientFor('refresh_token'), authorization_code: clientFor('authorization_code') };
  const credentials: { headers: Record<string, string>; form: Record<string, string> } =
    options.clientAuth === 'basic'
      ? { headers: { authorization: basicClientAuth(options.clientId, options.clientSecret) }, form: {} }
      : { headers: {}, form: { client_id: options.clientId, client_secret: options.clientSecret } };

  return async (grant, schema, signal) => {
    const form: Record<string, string> = { ...credentials.form };
    for (const [k, v] of Object.entries(grant)) if (v !== undefined) form[k] = v;
    return clients[grant.grant_type].request({
      method: 'POST',
      path,
      endpoint: options.endpoint,
      headers: credentials.headers,
      form,
      schema,
      anonymous: true,
      signal,
    });
  };
}
