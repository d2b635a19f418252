import { AUSTRALIA_TENANT_ID, INDIA_TENANT_ID } from './tenants.js';

/** Defaults of the Xero sandbox: credentials a config can use as they are, limits as Xero's. */
export const XERO_SANDBOX_DEFAULTS = {
  clientId: 'xero-sandbox-client-id',
  clientSecret: 'xero-sandbox-client-secret',
  refreshToken: 'xero-sandbox-refresh-token-0',
  seed: 1,
  /** Invoices per organisation (about 10 % are ACCPAY bills). */
  records: 120,
  contacts: 24,
  creditNotes: 30,
  ratePerMinute: 60,
  dailyLimit: 5000,
  maxConcurrent: 5,
  appRatePerMinute: 10_000,
  accessTokenTtlSeconds: 1800,
  /** Latest generated modification instant; history spreads 120 days before it. */
  anchor: '2025-03-01T00:00:00.000Z',
  days: 120,
  indiaTenantId: INDIA_TENANT_ID,
  australiaTenantId: AUSTRALIA_TENANT_ID,
} as const;
