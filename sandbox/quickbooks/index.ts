export {
  QBO_SANDBOX_DEFAULTS,
  type QuickBooksEmulatorOptions,
  type RunningQuickBooksEmulator,
  startQuickBooksEmulator,
} from './quickbooks-emulator.js';
export type { EmulatorStats } from './emulator-state.js';
export type { CreateInvoiceInput, EditInput, QboStore } from './qbo-store.js';
export { INDIA_COMPANY, US_COMPANY, type QboCompanyProfile } from './catalog.js';
