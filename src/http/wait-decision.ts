/** The vendor wait table lives in src/waits/vendor-waits.ts; connectors import its types and helpers from here. */
export { type QuotaSignal, MINUTE_WINDOW_MS, msToNextUtcMidnight } from '../waits/vendor-waits.js';
