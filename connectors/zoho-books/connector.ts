import { zohoFieldCatalog } from './streams/field-catalog.js';
import type { Connector, RateBudget } from '../../src/connector/types.js';
import { authorization } from './authorize.js';
import { createClient } from './client.js';
import { dailyCallLimitOf, Settings } from './settings.js';
import { quotaProfile } from './quota-profile.js';
import { webhooks } from './webhooks.js';
import { creditNotesStream } from './streams/credit-notes.js';
import { customersStream } from './streams/customers.js';
import { invoicesStream } from './streams/invoices.js';

/**
 * Rate budget per organisation: 90 calls a minute (under Zoho's 100/min/org, leaving room for the
 * organisation's other integrations), 5 in flight, and the plan's daily cap (settings.plan, default the
 * Free plan's 1,000; an explicit settings.dailyCallLimit wins; https://www.zoho.com/books/api/v3/introduction/#api-call-limit).
 * `rateBudget` is the static default; `rateBudgetFor(settings)` is the per-connection budget with the
 * configured daily cap.
 */
const RATE_BUDGET: RateBudget = { perMinute: 90, perDay: 1000, concurrency: 5 };

export const connector: Connector<Settings> = {
  id: 'zoho-books',
  displayName: 'Zoho Books',
  settings: Settings,
  streams: {
    invoices: invoicesStream,
    'credit-notes': creditNotesStream,
    customers: customersStream,
  },
  rateBudget: RATE_BUDGET,
  rateBudgetFor: (settings) => ({ ...RATE_BUDGET, perDay: dailyCallLimitOf(settings) }),
  quotaProfile,
  createClient,
  authorization,
  webhooks,
  fieldCatalog: zohoFieldCatalog,
};
