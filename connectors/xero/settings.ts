import { z } from 'zod';
import { TimeoutMs } from '../../src/connector/timeout-ms.js';

/**
 * A Xero connection's `settings` in the YAML config (`connections[].settings`), parsed once when the
 * config is loaded (connectors/registry.ts); streams and the client receive the parsed value. Secrets
 * are strings; write them as `${ENV}`:
 *
 *   system: xero
 *   settings:
 *     clientId: ${XERO_CLIENT_ID}
 *     clientSecret: ${XERO_CLIENT_SECRET}
 *     refreshToken: ${XERO_REFRESH_TOKEN}   # seeds the token store once; Xero rotates it on every refresh
 *     tenantId: ${XERO_TENANT_ID}           # from GET https://api.xero.com/connections — never "the first org"
 *
 * Two connections to two organisations of one Xero login share `tokenGroup` (below).
 * `baseUrl` (API root, default https://api.xero.com/api.xro/2.0) and `tokenUrl` (default
 * https://identity.xero.com/connect/token, or `<baseUrl origin>/connect/token` when only baseUrl is set)
 * point the connector at the sandbox.
 */
export const XERO_API_URL = 'https://api.xero.com/api.xro/2.0';
export const XERO_TOKEN_URL = 'https://identity.xero.com/connect/token';
export const XERO_AUTHORIZE_URL = 'https://login.xero.com/identity/connect/authorize';
/**
 * Records per list page. Xero pages 100 records by default
 * (https://developer.xero.com/faq/limits/retrieving-data); 1000 is the largest pageSize we rely on (see
 * README.md, "Limitations").
 */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/**
 * API calls a day per organisation (tenant) by the app's tier, since 2 March 2026: Starter 1,000, every
 * other tier 5,000 (https://developer.xero.com/pricing, https://developer.xero.com/faq/pricing-and-policy-updates;
 * the per-tier day limits as reported at https://www.accountingtoday.com/news/xero-shifts-to-tiered-pricing-model-for-developers).
 * New apps start on Starter. Xero may grant more: `rateBudget.perDay` overrides.
 */
export const TIER_DAILY_CALLS = {
  starter: 1000,
  core: 5000,
  plus: 5000,
  advanced: 5000,
  enterprise: 5000,
} as const;
export type XeroTier = keyof typeof TIER_DAILY_CALLS;

/** Xero tenant (organisation) ids are UUIDs, e.g. 6f1d2a4e-8c3b-4e5a-9b7c-1a2b3c4d5e01. */
const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const Settings = z.strictObject({
  /**
   * How long the organisation settings the mappers need (base currency, tax rates) are cached per
   * process before they are read again. @defaultValue 3600
   */
  lookupsCacheSeconds: z.number().int().min(0).default(3600),
  /**
   * The app's Xero tier (developer.xero.com → My Apps → the app's plan): sets the daily cap per
   * organisation (TIER_DAILY_CALLS). @defaultValue "starter", where new apps start
   */
  tier: z.enum(Object.keys(TIER_DAILY_CALLS) as [XeroTier, ...XeroTier[]]).default('starter'),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  /**
   * Seeds the token store once (the vendor may rotate it; the store keeps the live one). Optional: without
   * it, the grant comes from `erp-sync connect`, which writes the tokens to the store itself.
   */
  refreshToken: z.string().min(1).optional(),
  /** The organisation, sent as `xero-tenant-id` on every call: a UUID from GET https://api.xero.com/connections. */
  tenantId: z
    .string()
    .regex(TENANT_ID, 'expected the Xero tenant id, a UUID (GET https://api.xero.com/connections lists them)'),
  baseUrl: z.url().optional(),
  tokenUrl: z.url().optional(),
  /**
   * Where `erp-sync connect` sends a person to authorise the app. @defaultValue
   * https://login.xero.com/identity/connect/authorize, or `<baseUrl origin>/identity/connect/authorize` when only baseUrl is set
   */
  authorizeUrl: z.url().optional(),
  /**
   * The scopes `erp-sync connect` asks for, space-separated. @defaultValue the granular read scopes
   * (`offline_access accounting.invoices.read accounting.contacts.read accounting.settings.read`): apps
   * created from 2 March 2026 have only those, and older apps may request them too
   * (https://developer.xero.com/faq/granular-scopes); an older app that keeps the broad scopes sets
   * `offline_access accounting.transactions.read accounting.contacts.read accounting.settings.read`.
   */
  scopes: z
    .string()
    .regex(/^[a-z_.]+( [a-z_.]+)*$/, 'expected scopes separated by single spaces')
    .refine((s) => s.split(' ').includes('offline_access'), 'offline_access is needed for a refresh token')
    .optional(),
  pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  /** Whole-request timeout of every call, API and token endpoint, ms (src/connector/timeout-ms.ts). @defaultValue 30000 */
  timeoutMs: TimeoutMs,
  /**
   * One Xero authorisation reaches several organisations with ONE single-use refresh token
   * (https://developer.xero.com/documentation/guides/oauth2/auth-flow/). Connections for different
   * tenants of the same authorisation must share its token chain: give them the same tokenGroup (the
   * TokenStore key; default: the connection id), or the first refresh spends the token the others still hold.
   */
  tokenGroup: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/)
    .optional(),
});
export type Settings = z.output<typeof Settings>;
/** Settings as written in the config, before defaults (tests build them). */
export type SettingsInput = z.input<typeof Settings>;

/** The API root, e.g. `https://api.xero.com/api.xro/2.0`. */
export function apiBaseUrl(settings: Pick<Settings, 'baseUrl'>): string {
  return settings.baseUrl ?? XERO_API_URL;
}

/**
 * The token endpoint: `tokenUrl`, else — when `baseUrl` points elsewhere (the sandbox serves the API and
 * the token endpoint on one origin) — `<baseUrl origin>/connect/token`, else identity.xero.com.
 */
export function tokenUrl(settings: Pick<Settings, 'baseUrl' | 'tokenUrl'>): string {
  if (settings.tokenUrl) return settings.tokenUrl;
  if (settings.baseUrl) return new URL('/connect/token', settings.baseUrl).toString();
  return XERO_TOKEN_URL;
}

/** The authorize endpoint: `authorizeUrl`, else `<baseUrl origin>/identity/connect/authorize` when baseUrl is set, else login.xero.com. */
export function authorizeUrl(settings: Pick<Settings, 'baseUrl' | 'authorizeUrl'>): string {
  if (settings.authorizeUrl) return settings.authorizeUrl;
  if (settings.baseUrl) return new URL('/identity/connect/authorize', settings.baseUrl).toString();
  return XERO_AUTHORIZE_URL;
}

/** `GET /connections` (the tenants a grant reaches) on the API's origin: https://api.xero.com/connections. */
export function connectionsUrl(settings: Pick<Settings, 'baseUrl'>): string {
  return new URL('/connections', apiBaseUrl(settings)).toString();
}
