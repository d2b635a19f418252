import type { Connector, RateBudget } from '../../src/connector/types.js';
import { checkTally } from './streams/check.js';
import { createClient } from './client.js';
import { quotaProfile } from './quota-profile.js';
import { Settings } from './settings.js';
import { creditNotesStream } from './streams/credit-notes.js';
import { customersStream } from './streams/customers.js';
import { invoicesStream } from './streams/invoices.js';

/**
 * TallyPrime serves one request at a time (https://help.tallysolutions.com/integration-with-tallyprime/):
 * one in flight per connection, and a per-minute budget that leaves Tally's user room to work (every
 * request makes Tally build an answer while the user waits).
 */
const RATE_BUDGET: RateBudget = { perMinute: 60, concurrency: 1 };

export const connector: Connector<Settings> = {
  id: 'tally',
  displayName: 'TallyPrime',
  settings: Settings,
  streams: {
    invoices: invoicesStream,
    'credit-notes': creditNotesStream,
    customers: customersStream,
  },
  rateBudget: RATE_BUDGET,
  // Deletes leave no tombstone in Tally (README.md, "Voids and deletes"): a GUID sweep finds them.
  sweepsDeletes: true,
  checks: checkTally,
  quotaProfile,
  createClient,
};
