import { z } from 'zod';
import { TimeoutMs } from '../../src/connector/timeout-ms.js';

/**
 * Zoho Books data centres: the API host and the accounts (OAuth) host must both match the
 * organisation's data centre. Canada's accounts server is zohocloud.ca, not zoho.ca.
 * https://www.zoho.com/books/api/v3/introduction/ and
 * https://zoho.com/accounts/protocol/oauth/web-apps/access-token-expiry.html
 */
export const DATA_CENTRES = {
  com: { api: 'https://www.zohoapis.com', accounts: 'https://accounts.zoho.com' },
  eu: { api: 'https://www.zohoapis.eu', accounts: 'https://accounts.zoho.eu' },
  in: { api: 'https://www.zohoapis.in', accounts: 'https://accounts.zoho.in' },
  'com.au': { api: 'https://www.zohoapis.com.au', accounts: 'https://accounts.zoho.com.au' },
  jp: { api: 'https://www.zohoapis.jp', accounts: 'https://accounts.zoho.jp' },
  ca: { api: 'https://www.zohoapis.ca', accounts: 'https://accounts.zohocloud.ca' },
  'com.cn': { api: 'https://www.zohoapis.com.cn', accounts: 'https://accounts.zoho.com.cn' },
  sa: { api: 'https://www.zohoapis.sa', accounts: 'https://accounts.zoho.sa' },
} as const;
export type DataCentre = keyof typeof DATA_CENTRES;

export const API_PATH = '/books/v3';

/**
 * API calls a day per organisation by plan
 * (https://www.zoho.com/books/kb/automation/per-day-api-limit.html; also
 * https://www.zoho.com/books/api/v3/introduction/#api-call-limit).
 */
export const PLAN_DAILY_CALLS = {
  free: 1000,
  standard: 2000,
  professional: 5000,
  premium: 10_000,
  elite: 10_000,
  ultimate: 10_000,
} as const;
export type ZohoPlan = keyof typeof PLAN_DAILY_CALLS;

/** The organisation's daily cap: `dailyCallLimit` when set, else its plan's. */
export function dailyCallLimitOf(settings: { plan: ZohoPlan; dailyCallLimit?: number }): number {
  return settings.dailyCallLimit ?? PLAN_DAILY_CALLS[settings.plan];
}

/**
 * A connection's settings (`connections[].settings` in the YAML config), parsed once when the config is
 * loaded (connectors/registry.ts); streams and the client receive the parsed value. Secrets come in
 * through `${VAR}` interpolation; none of them is ever logged.
 */
export const Settings = z.strictObject({
  /**
   * The Zoho Books organisation, sent as `organization_id` on every call. Zoho tokens can see several
   * organisations; we never default to "the first one". Quote it in YAML (an 11-digit number is fine,
   * but ids are strings).
   */
  organizationId: z
    .union([z.string(), z.number().int().nonnegative()])
    .transform((v) => String(v).trim())
    .pipe(z.string().regex(/^\d+$/, 'expected the numeric organization id')),
  /** Data centre of the organisation: picks the API and accounts hosts. @defaultValue "com" */
  dataCenter: z.enum(Object.keys(DATA_CENTRES) as [DataCentre, ...DataCentre[]]).default('com'),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  /**
   * Seeds the token store once. Optional: without it, the grant comes from `erp-sync connect`, which
   * writes the tokens to the store itself. Zoho refresh tokens do not expire or rotate; a 21st token for
   * the same user evicts the oldest.
   */
  refreshToken: z.string().min(1).optional(),
  /**
   * Overrides the API base (the sandbox, a proxy). Either the full base (`http://127.0.0.1:4010/books/v3`)
   * or a bare origin, to which `/books/v3` is appended.
   */
  baseUrl: z.url().optional(),
  /** Overrides the accounts server. @defaultValue the data centre's, or baseUrl's origin when baseUrl is set */
  accountsUrl: z.url().optional(),
  /**
   * The organisation's Zoho Books plan: sets the daily call cap (PLAN_DAILY_CALLS) unless `dailyCallLimit`
   * says otherwise. @defaultValue "free"
   */
  plan: z.enum(Object.keys(PLAN_DAILY_CALLS) as [ZohoPlan, ...ZohoPlan[]]).default('free'),
  /**
   * API calls per day, over the plan's (an organisation whose limit Zoho raised; 0: no daily cap, the
   * sandbox). @defaultValue the plan's
   */
  dailyCallLimit: z.number().int().min(0).optional(),
  /** Rows per list page, at most Zoho's 200. @defaultValue 200 */
  pageSize: z.number().int().min(1).max(200).default(200),
  /** Detail calls (`GET /invoices/{id}`) in flight at once within one read; quotas still apply. @defaultValue 3 */
  detailConcurrency: z.number().int().min(1).max(5).default(3),
  /** How long organisation and tax settings are cached per process, seconds. @defaultValue 3600 */
  lookupsCacheSeconds: z.number().int().min(0).default(3600),
  /** Whole-request timeout of every call, API and accounts server, ms (src/connector/timeout-ms.ts). @defaultValue 30000 */
  timeoutMs: TimeoutMs,
});
export type Settings = z.output<typeof Settings>;
/** Settings as written in the config, before defaults (tests build them). */
export type SettingsInput = z.input<typeof Settings>;

/** The Books API base, e.g. `https://www.zohoapis.in/books/v3`. */
export function apiBaseUrl(settings: Pick<Settings, 'dataCenter' | 'baseUrl'>): string {
  if (!settings.baseUrl) return `${DATA_CENTRES[settings.dataCenter].api}${API_PATH}`;
  const url = new URL(settings.baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path === '' ? API_PATH : path}`;
}

/** The accounts server that issues access tokens, e.g. `https://accounts.zoho.in`. */
export function accountsBaseUrl(settings: Pick<Settings, 'dataCenter' | 'baseUrl' | 'accountsUrl'>): string {
  if (settings.accountsUrl) return settings.accountsUrl.replace(/\/+$/, '');
  if (settings.baseUrl) return new URL(settings.baseUrl).origin;
  return DATA_CENTRES[settings.dataCenter].accounts;
}
