import { xeroFieldCatalog } from './streams/field-catalog.js';
import type { Connector, RateBudget } from '../../src/connector/types.js';
import { tokenKeyFor } from './auth.js';
import { authorization } from './authorize.js';
import { createClient } from './client.js';
import { Settings, TIER_DAILY_CALLS } from './settings.js';
import { quotaProfile } from './quota-profile.js';
import { webhooks } from './webhooks.js';
import { documents } from './streams/documents.js';
import { creditNotesStream } from './streams/credit-notes.js';
import { customersStream } from './streams/customers.js';
import { invoicesStream } from './streams/invoices.js';

/**
 * Xero Accounting API 2.0. Limits per organisation: 60 calls/min, 5 at a time
 * (https://developer.xero.com/faq/limits), and a day's calls by the app's tier (settings.tier: Starter
 * 1,000, the others 5,000; settings.ts, TIER_DAILY_CALLS). Our budget keeps 5 calls/min of headroom for
 * other apps' clocks and retries; the day and concurrency limits are Xero's own. The static budget
 * assumes Starter, where new apps start.
 */
const RATE_BUDGET: RateBudget = { perMinute: 55, perDay: TIER_DAILY_CALLS.starter, concurrency: 5 };

export const connector: Connector<Settings> = {
  id: 'xero',
  displayName: 'Xero',
  settings: Settings,
  streams: {
    invoices: invoicesStream,
    'credit-notes': creditNotesStream,
    customers: customersStream,
  },
  rateBudget: RATE_BUDGET,
  rateBudgetFor: (settings) => ({ ...RATE_BUDGET, perDay: TIER_DAILY_CALLS[settings.tier] }),
  quotaProfile,
  createClient,
  tokenKeyFor,
  authorization,
  webhooks,
  fieldCatalog: xeroFieldCatalog,
  documents,
};
