import type { Connector } from '../../src/connector/types.js';
import { createXeroClient } from './client.js';
import { XeroSettings } from './settings.js';
import { creditNotesStream } from './streams/credit-notes.js';
import { customersStream } from './streams/customers.js';
import { invoicesStream } from './streams/invoices.js';

/**
 * Xero Accounting API 2.0. Limits per organisation (reference §3.7): 60 calls/min, 5,000/day, 5 at a
 * time. Our budget keeps 5 calls/min of headroom for other apps' clocks and retries; the day and
 * concurrency limits are Xero's own.
 */
export const xeroConnector: Connector<XeroSettings> = {
  id: 'xero',
  displayName: 'Xero',
  settings: XeroSettings,
  streams: { invoices: invoicesStream, 'credit-notes': creditNotesStream, customers: customersStream },
  rateBudget: { perMinute: 55, perDay: 5000, concurrency: 5 },
  createClient: createXeroClient,
};
