import type { Connector, RateBudget } from '../../src/connector/types.js';
import { tokenKeyFor } from './auth.js';
import { authorization } from './authorize.js';
import { createClient } from './client.js';
import { Settings } from './settings.js';
import { webhooks } from './webhooks.js';
import { creditNotesStream } from './streams/credit-notes.js';
import { customersStream } from './streams/customers.js';
import { invoicesStream } from './streams/invoices.js';

/**
 * Xero Accounting API 2.0. Limits per organisation: 60 calls/min, 5,000/day, 5 at a time
 * (https://developer.xero.com/faq/limits). Our budget keeps 5 calls/min of headroom for other apps'
 * clocks and retries; the day and concurrency limits are Xero's own.
 */
const RATE_BUDGET: RateBudget = { perMinute: 55, perDay: 5000, concurrency: 5 };

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
  createClient,
  tokenKeyFor,
  authorization,
  webhooks,
};
