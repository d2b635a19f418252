import { qboFieldCatalog } from './streams/field-catalog.js';
import type { Connector, RateBudget } from '../../src/connector/types.js';
import { authorization } from './authorize.js';
import { createClient } from './client.js';
import { Settings } from './settings.js';
import { quotaProfile } from './quota-profile.js';
import { webhooks } from './webhooks.js';
import { documents } from './streams/documents.js';
import { creditNotesStream } from './streams/credit-notes.js';
import { customersStream } from './streams/customers.js';
import { invoicesStream } from './streams/invoices.js';

/**
 * Rate budget per realm: Intuit allows 500 requests a minute per realm and 10 per second per realm and
 * app (https://developer.intuit.com/app/developer/qbo/docs/learn/limits-and-throttles), and at most 10
 * concurrent requests per realm and app
 * (https://developer.intuit.com/hub/blog/2016/08/08/idg-concurrent-api-use-changes-coming-soon). We stay
 * at 450 a minute so token refreshes, retries and a second app on the same realm have room.
 */
const RATE_BUDGET: RateBudget = { perMinute: 450, concurrency: 10 };

export const connector: Connector<Settings> = {
  id: 'quickbooks',
  displayName: 'QuickBooks Online',
  settings: Settings,
  streams: {
    invoices: invoicesStream,
    'credit-notes': creditNotesStream,
    customers: customersStream,
  },
  rateBudget: RATE_BUDGET,
  quotaProfile,
  createClient,
  authorization,
  webhooks,
  fieldCatalog: qboFieldCatalog,
  documents,
};
