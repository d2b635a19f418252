export { startXeroEmulator, type XeroEmulator, type XeroEmulatorOptions } from './xero-emulator.js';
export type { XeroEmulatorStats, XeroEmulatorControl } from './emulator-control.js';
export { XERO_SANDBOX_DEFAULTS } from './sandbox-defaults.js';
export {
  DEFAULT_TENANTS,
  INDIA_TENANT_ID,
  AUSTRALIA_TENANT_ID,
  NEW_ZEALAND_TENANT,
  NEW_ZEALAND_TENANT_ID,
  type TenantProfile,
} from './tenants.js';
export { generateData, type GenerateDataOptions, type TenantDataset } from './generate-data.js';
export {
  XeroDataStore,
  type InvoiceCreate,
  type InvoiceEdit,
  type CreditNoteCreate,
  type ContactEdit,
} from './xero-data-store.js';
export { applyStoreOp, churn, type StoreOp } from './store-ops.js';
export { EmulatorClock, type ClockSettings } from '../kit/emulator-clock.js';
export { XeroTokenRegistry, type TokenCredentials } from './token-registry.js';
export { XeroRateLimiter, type RateLimits } from './rate-limiter.js';
export { parseWhere, evaluateWhere, WhereParseError } from './where-filter.js';
export { listRecords, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE, type IfModifiedSinceMode } from './list-query.js';
export { currencyRateFor, type CurrencyRateConvention } from './currency-rate.js';
export { computeLine, computeTotals, type LineSpec } from './document-amounts.js';
export { msDate, dateString, parseMsDate } from './xero-date.js';
export { SeededRandom } from '../kit/seeded-random.js';
export { makeGstin, gstinCheckCharacter } from '../kit/gstin.js';
export { INDIA_TAX_RATES, AUSTRALIA_TAX_RATES, type XeroTaxRate } from './tax-rates.js';
export type * from './xero-records.js';
