export {
  startZohoEmulator,
  type ZohoEmulator,
  type ZohoEmulatorOptions,
  type ZohoEmulatorStats,
} from './zoho-emulator.js';
export { ZOHO_SANDBOX_DEFAULTS } from './sandbox-defaults.js';
export { generateData, IST_OFFSET_MINUTES, type GenerateDataOptions, type ZohoDataset } from './generate-data.js';
export { ZohoDataStore } from './zoho-data-store.js';
export {
  ZohoMutation,
  ZohoMutationBatch,
  InvoiceChanges,
  ContactChanges,
  MutationError,
  type ZohoMutationResult,
} from './zoho-mutation.js';
export { EmulatorClock, type ClockSettings } from '../kit/emulator-clock.js';
export { ZohoTokenRegistry, type ZohoTokenOptions } from './token-registry.js';
export { ZohoRateLimiter, type RateLimits } from './rate-limiter.js';
export { ZohoApiError, zohoErrors } from './zoho-error.js';
export { TaxCatalog, type TaxDefinition, type TaxSpecificType } from './tax-catalog.js';
export { computeDocumentAmounts, type DocumentAmounts } from './compute-document-amounts.js';
export { renderInvoiceDetail, renderInvoiceRow } from './render-invoice.js';
export { renderCreditNoteDetail, renderCreditNoteRow } from './render-credit-note.js';
export { renderContactDetail, renderContactRow } from './render-contact.js';
export { formatZohoTimestamp, parseZohoTimestamp, formatZohoDate } from './zoho-timestamp.js';
export { SeededRandom } from '../kit/seeded-random.js';
export { gstinCheckCharacter } from '../kit/gstin.js';
export { MAX_PER_PAGE } from './list-query.js';
export type * from './store-records.js';
