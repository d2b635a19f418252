import type { Headers } from '../../src/http/vendor-client.js';
import type { QuotaSignal } from '../../src/waits/vendor-waits.js';

/**
 * TallyPrime publishes no rate limit and sends no quota headers: its limit is that it serves one request
 * at a time (https://help.tallysolutions.com/integration-with-tallyprime/), which the connector's rate
 * budget (concurrency 1) keeps. Nothing to read.
 */
export function readQuota(_headers: Headers): QuotaSignal[] {
  return [];
}
