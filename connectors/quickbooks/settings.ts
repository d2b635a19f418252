import { z } from 'zod';
import { ConfigError, formatZodIssues } from '../../src/errors/index.js';

/**
 * A QuickBooks Online connection's `settings` in the YAML config, e.g.
 *
 *   settings:
 *     realmId: "9341453012345678"
 *     clientId: ${QBO_CLIENT_ID}
 *     clientSecret: ${QBO_CLIENT_SECRET}
 *     refreshToken: ${QBO_REFRESH_TOKEN}   # seeds the token store once; rotated tokens live in Redis
 *
 * One token per realm (reference trap 17): a connection is exactly one company, never "the first one".
 * `baseUrl`/`tokenUrl` point the connector at the sandbox (the emulator serves both).
 */
export const QuickBooksSettings = z.strictObject({
  /** Company id, returned at consent time; goes in every path: /v3/company/{realmId}/… */
  realmId: z.string().regex(/^[A-Za-z0-9_-]+$/, 'expected the QuickBooks company id (realmId)'),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  /** Seeds the token store; Intuit rotates it on refresh and the store keeps the newest. */
  refreshToken: z.string().min(1),
  /** API root without /v3; production https://quickbooks.api.intuit.com, sandbox-quickbooks.api.intuit.com for Intuit's sandbox. */
  baseUrl: z.url().default('https://quickbooks.api.intuit.com'),
  /** Token endpoint (https://developer.intuit.com/app/developer/qbo/docs/develop/authentication-and-authorization/faq). */
  tokenUrl: z.url().default('https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer'),
  /** `minorversion` sent on every call; 1–74 are unsupported since 1 Aug 2025 (reference §2.1). */
  minorVersion: z.string().regex(/^\d+$/).default('75'),
  /** MAXRESULTS per query page, at most 1000 (reference §2.3). */
  pageSize: z.number().int().min(2).max(1000).default(1000),
  /**
   * How long a 429 / ThrottleExceeded (3001) asks us to wait. Intuit documents no Retry-After and says to
   * wait 60 s; sandboxes and tests may shorten it so the read retries in process.
   */
  throttleWaitMs: z.number().int().min(0).default(60_000),
  /** Whole-request timeout; Intuit times out requests after 120 s. */
  timeoutMs: z.number().int().min(1_000).max(120_000).default(30_000),
});
export type QuickBooksSettings = z.infer<typeof QuickBooksSettings>;
export type QuickBooksSettingsInput = z.input<typeof QuickBooksSettings>;

/** Settings as a stream sees them (ReadContext.settings is untyped): parsed again, defaults applied. */
export function readSettings(settings: Record<string, unknown>): QuickBooksSettings {
  const parsed = QuickBooksSettings.safeParse(settings);
  if (!parsed.success) throw new ConfigError(`quickbooks settings: ${formatZodIssues(parsed.error).join('; ')}`);
  return parsed.data;
}
