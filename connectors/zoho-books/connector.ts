import type { Connector, RateBudget } from '../../src/connector/types.js';
import { createZohoClient } from './client.js';
import { parseZohoSettings, ZohoSettings } from './settings.js';
import { creditNotesStream } from './streams/credit-notes.js';
import { customersStream } from './streams/customers.js';
import { invoicesStream } from './streams/invoices.js';

/**
 * Rate budget per organisation: 90 calls a minute (under Zoho's 100/min/org, leaving room for the
 * organisation's other integrations), 5 in flight, and the plan's daily cap (settings.dailyCallLimit,
 * default 1,000 — the Free plan). `rateBudget` is the static default; `rateBudgetFor(settings)` is the
 * per-connection budget with the configured daily cap.
 */
export const ZOHO_RATE_BUDGET: RateBudget = { perMinute: 90, perDay: 1000, concurrency: 5 };

export function rateBudgetFor(settings: unknown): RateBudget {
  return { ...ZOHO_RATE_BUDGET, perDay: parseZohoSettings(settings).dailyCallLimit };
}

export const zohoBooksConnector: Connector<ZohoSettings> & { rateBudgetFor: typeof rateBudgetFor } = {
  id: 'zoho-books',
  displayName: 'Zoho Books',
  settings: ZohoSettings,
  streams: {
    invoices: invoicesStream,
    'credit-notes': creditNotesStream,
    customers: customersStream,
  },
  rateBudget: ZOHO_RATE_BUDGET,
  rateBudgetFor,
  createClient: (options) => createZohoClient(options),
};
