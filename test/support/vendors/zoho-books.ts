import {
  startZohoEmulator,
  ZOHO_SANDBOX_DEFAULTS,
  type ZohoEmulator,
  type ZohoEmulatorOptions,
} from '../../../sandbox/zoho-books/index.js';
import type { VendorProfile } from './vendor-profile.js';

/** Zoho Books: one organisation per emulator, no credit notes unless asked, limits off. */
export const zohoBooks: VendorProfile<ZohoEmulator, ZohoEmulatorOptions> = {
  system: 'zoho-books',
  idPrefix: 'zoho',
  envStem: 'ZOHO',
  start: ({ seed, invoices, customers, credentials, options }) =>
    startZohoEmulator({
      port: 0,
      seed,
      records: invoices,
      customers,
      creditNotes: 0,
      ratePerMinute: 0,
      dailyLimit: 0,
      ...credentials,
      ...options,
    }),
  settings: (z, secret) => ({
    organizationId: z.organizationId,
    clientId: ZOHO_SANDBOX_DEFAULTS.clientId,
    ...secret,
    baseUrl: z.apiBase,
    accountsUrl: z.url,
    dailyCallLimit: 0,
    // Read afresh on every use: the suite's Zoho tests change organisations mid-test.
    lookupsCacheSeconds: 0,
  }),
  // The generator's default range.
  history: () => ({ from: '2025-01-01', to: '2025-12-31' }),
};
