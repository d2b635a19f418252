import {
  QBO_SANDBOX_DEFAULTS,
  type QuickBooksEmulatorOptions,
  type RunningQuickBooksEmulator,
  startQuickBooksEmulator,
} from '../../../sandbox/quickbooks/index.js';
import { addDays, utcDate } from '../../../src/billing/dates.js';
import type { VendorProfile } from './vendor-profile.js';

/** QuickBooks Online: one realm (an Indian company unless `company` says otherwise), no credit memos, limits off. */
export const quickbooks: VendorProfile<RunningQuickBooksEmulator, QuickBooksEmulatorOptions> = {
  system: 'quickbooks',
  idPrefix: 'qbo',
  envStem: 'QUICKBOOKS',
  start: ({ seed, invoices, customers, credentials, options }) =>
    startQuickBooksEmulator({
      port: 0,
      seed,
      records: invoices,
      customers,
      creditMemos: 0,
      ratePerMinute: 1_000_000,
      maxInFlight: 50,
      ...credentials,
      ...options,
    }),
  settings: (q, secret) => ({
    realmId: q.realmId,
    clientId: QBO_SANDBOX_DEFAULTS.clientId,
    ...secret,
    baseUrl: q.url,
    tokenUrl: `${q.url}/oauth2/v1/tokens/bearer`,
  }),
  // The generator spreads documents over the days before the emulator's now; a day either side covers
  // the company's zone (IST) against UTC.
  history: (q) => ({ from: '2020-01-01', to: addDays(utcDate(q.clock.now()), 1) }),
};
