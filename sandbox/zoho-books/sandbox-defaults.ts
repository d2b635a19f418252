/**
 * Sandbox credentials and identifiers (never real secrets), printed by the CLI so a connector config can
 * point at the emulator: token URL `<url>/oauth/v2/token`, API base `<url>/books/v3`.
 */
export const ZOHO_SANDBOX_DEFAULTS = Object.freeze({
  clientId: '1000.SANDBOXZOHOBOOKSCLIENT',
  clientSecret: 'sandbox-zoho-books-client-secret',
  refreshToken: '1000.sandbox0zoho0books.refresh0token',
  organizationId: '60012345678',
  seed: 1,
  records: 500,
  customers: 80,
  creditNotes: 60,
  ratePerMinute: 100,
  dailyLimit: 10_000,
  accessTokenTtlSeconds: 3600,
  maxRefreshesPerTenMinutes: 10,
});

/** The connection id of the Zoho Books sandbox in the config `erp-sync sandbox` prints (and its webhook URL). */
export const ZOHO_SANDBOX_CONNECTION = 'zoho-in';
