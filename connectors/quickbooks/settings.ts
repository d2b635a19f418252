import { z } from 'zod';
import { TimeoutMs } from '../../src/connector/timeout-ms.js';

/**
 * A QuickBooks Online connection's `settings` in the YAML config, e.g.
 *
 *   settings:
 *     realmId: "9341453012345678"
 *     clientId: ${QBO_CLIENT_ID}
 *     clientSecret: ${QBO_CLIENT_SECRET}
 *     refreshToken: ${QBO_REFRESH_TOKEN}   # seeds the token store once; rotated tokens live in Redis
 *
 * Parsed once when the config is loaded (connectors/registry.ts); streams and the client receive the
 * parsed value. A token is issued for one company (realm), so a connection is exactly one realm, never
 * "the first one" (README.md, "Auth"). `baseUrl`/`tokenUrl` point the connector at Intuit's sandbox or
 * the local emulator. Secrets come in through `${VAR}` interpolation; none of them is ever logged.
 */
export const Settings = z.strictObject({
  /**
   * How long the organisation settings the mappers need (base currency, tax rates) are cached per
   * process before they are read again. @defaultValue 3600
   */
  lookupsCacheSeconds: z.number().int().min(0).default(3600),
  /** Company id, returned at consent time; goes in every path: /v3/company/{realmId}/… */
  realmId: z.string().regex(/^[A-Za-z0-9_-]+$/, 'expected the QuickBooks company id (realmId)'),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  /**
   * Seeds the token store once (the vendor may rotate it; the store keeps the live one). Optional: without
   * it, the grant comes from `erp-sync connect`, which writes the tokens to the store itself.
   */
  refreshToken: z.string().min(1).optional(),
  /** API root without /v3; production https://quickbooks.api.intuit.com, sandbox-quickbooks.api.intuit.com for Intuit's sandbox. */
  baseUrl: z.url().default('https://quickbooks.api.intuit.com'),
  /**
   * Where `erp-sync connect` sends a person to authorise the app
   * (https://developer.intuit.com/app/developer/qbo/docs/develop/authentication-and-authorization/oauth-2.0);
   * the sandbox serves it on its own port.
   */
  authorizeUrl: z.url().default('https://appcenter.intuit.com/connect/oauth2'),
  /** Token endpoint (https://developer.intuit.com/app/developer/qbo/docs/develop/authentication-and-authorization/faq). */
  tokenUrl: z.url().default('https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer'),
  /**
   * `minorversion` sent on every call; since 1 Aug 2025 Intuit ignores 1–74 and answers as 75
   * (https://blogs.intuit.com/2025/01/21/changes-to-our-accounting-api-that-may-impact-your-application).
   */
  minorVersion: z.string().regex(/^\d+$/).default('75'),
  /** MAXRESULTS per query page, at most 1000 (https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/data-queries). */
  pageSize: z.number().int().min(2).max(1000).default(1000),
  /**
   * How long a 429 / ThrottleExceeded (3001) asks us to wait. Intuit documents no Retry-After and says to
   * wait 60 s (https://developer.intuit.com/app/developer/qbo/docs/learn/limits-and-throttles); sandboxes
   * and tests may shorten it so the read retries in process.
   */
  throttleWaitMs: z.number().int().min(0).default(60_000),
  /**
   * Read (CorePlus) calls the app may make in a calendar month across every company it is connected to:
   * the Builder tier's 500,000, past which Intuit blocks the app's reads until the next month and shows it
   * "Offline" to every customer (https://blogs.intuit.com/2026/01/08/understanding-builder-tier-api-limits-for-you-and-your-customers).
   * A paid tier's allowance is set here; 0: not counted against a budget. Shared by every connection with
   * the same clientId. @defaultValue 500000
   */
  appMonthlyReadBudget: z.number().int().min(0).default(500_000),
  /**
   * A name for the app in metrics and output (`erpsync_vendor_quota_used{app, window="month"}`), never
   * secret. @defaultValue `qbo-` + a short hash of the clientId
   */
  appName: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/, 'use 1–40 letters, digits, dots, dashes or underscores')
    .optional(),
  /** Whole-request timeout of every call, API and token endpoint, ms (src/connector/timeout-ms.ts); Intuit times out requests after 120 s (same page). */
  timeoutMs: TimeoutMs,
});
export type Settings = z.infer<typeof Settings>;
/** Settings as written in the config, before defaults (tests build them). */
export type SettingsInput = z.input<typeof Settings>;
