import type { Connector } from '../../src/connector/types.js';
import { createQuickBooksClient } from './client.js';
import { QuickBooksSettings } from './settings.js';
import { creditNotesStream } from './streams/credit-notes.js';
import { customersStream } from './streams/customers.js';
import { invoicesStream } from './streams/invoices.js';

/**
 * QuickBooks Online Accounting API v3 (reference §2). Budget per realm: Intuit allows 500 requests a
 * minute and 10 in flight per realm and app; we stay at 450 so refreshes, retries and a second app on the
 * same realm have room [Q7][Q8]. https://developer.intuit.com/app/developer/qbo/docs/learn/limits-and-throttles
 */
export const quickbooksConnector: Connector<QuickBooksSettings> = {
  id: 'quickbooks',
  displayName: 'QuickBooks Online',
  settings: QuickBooksSettings,
  streams: {
    invoices: invoicesStream,
    'credit-notes': creditNotesStream,
    customers: customersStream,
  },
  rateBudget: { perMinute: 450, concurrency: 10 },
  createClient: createQuickBooksClient,
};
