/** The QuickBooks Online connector (see README.md). */
export { quickbooksConnector, quickbooksConnector as default } from './connector.js';
export { createQuickBooksClient, quickbooksRefresh } from './client.js';
export { quickbooksErrorTable, quickbooksTokenErrorTable, readFault } from './error-table.js';
export { QuickBooksSettings, readSettings, type QuickBooksSettingsInput } from './settings.js';
export { invoicesStream } from './streams/invoices.js';
export { creditNotesStream } from './streams/credit-notes.js';
export { customersStream } from './streams/customers.js';
export { QboStreamState } from './streams/state.js';
export { fetchLookups } from './streams/lookups.js';
export { mapInvoice } from './map/invoice.js';
export { mapCreditNote } from './map/credit-note.js';
export { mapCustomer } from './map/customer.js';
export { QboLookups, buildLookups } from './map/lookups.js';
export {
  startQuickBooksEmulator,
  QBO_SANDBOX_DEFAULTS,
  type QuickBooksEmulatorOptions,
  type RunningQuickBooksEmulator,
} from '../../sandbox/quickbooks/index.js';
