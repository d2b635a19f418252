import type { Headers } from '../../src/http/vendor-client.js';
import type { QuotaSignal } from '../../src/waits/vendor-waits.js';

/**
 * Intuit sends no rate-limit headers: its limits page documents the per-realm limits and the 429 answer
 * only (https://developer.intuit.com/app/developer/qbo/docs/learn/limits-and-throttles). So there is
 * nothing to read off a response; the 429 / ThrottleExceeded fault is classified by error-table.ts, and
 * our own budget (connector.ts) keeps us under the limits.
 */
export function readQuota(_headers: Headers): QuotaSignal[] {
  return [];
}
