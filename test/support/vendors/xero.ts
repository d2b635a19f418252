import {
  startXeroEmulator,
  XERO_SANDBOX_DEFAULTS,
  type XeroEmulator,
  type XeroEmulatorOptions,
} from '../../../sandbox/xero/index.js';
import { addDays, utcDate } from '../../../src/billing/dates.js';
import type { VendorProfile } from './vendor-profile.js';

/**
 * Xero: the connection reads the emulator's first organisation (India, INR, unless `tenants` says
 * otherwise); no credit notes, limits off.
 */
export const xero: VendorProfile<XeroEmulator, XeroEmulatorOptions> = {
  system: 'xero',
  idPrefix: 'xero',
  envStem: 'XERO',
  start: ({ seed, invoices, customers, credentials, options }) =>
    startXeroEmulator({
      port: 0,
      seed,
      records: invoices,
      contacts: customers,
      creditNotes: 0,
      ratePerMinute: 1_000_000,
      dailyLimit: 10_000_000,
      maxConcurrent: 50,
      appRatePerMinute: 10_000_000,
      ...credentials,
      ...options,
    }),
  settings: (x, secret) => ({
    tenantId: x.tenantIds[0],
    clientId: XERO_SANDBOX_DEFAULTS.clientId,
    ...secret,
    baseUrl: x.apiBase,
    tokenUrl: x.tokenUrl,
  }),
  // Generated documents lie before the emulator's anchor; later ones are made at its clock's now.
  history: (x) => ({ from: '2020-01-01', to: addDays(utcDate(x.clock.now()), 1) }),
  // The connector's default tier (Starter) budgets 1,000 calls a day; the emulator's day is lifted above.
  rateBudget: { perDay: 0 },
};
