import type { Headers } from '../../src/http/vendor-client.js';
import { MINUTE_WINDOW_MS, type QuotaSignal } from '../../src/http/wait-decision.js';
import { rateLimitResetMs } from './error-table.js';

/**
 * Zoho's `X-Rate-Limit-Limit / -Remaining / -Reset` headers, read on every Books response
 * (https://www.zoho.com/books/api/v3/introduction/#api-call-limit). They describe the organisation's
 * daily allowance, except on a per-minute 429 where they describe the minute window that was hit
 * (Remaining 0, Reset ≤ 60 s). Classification only; the vendor client decides what to do:
 *
 * - Remaining > 0 → the day's remaining quota.
 * - Remaining 0 and Reset > 60 s → the day is spent (the client parks the connection until the reset).
 * - Remaining 0 and Reset ≤ 60 s → a minute window (or the last minute of the day) at 0.
 * - Limit 0 means "no limit" (sandbox with limits off): nothing to report.
 */
function int(headers: Headers, name: string): number | undefined {
  const raw = headers[name];
  const v = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
}

export function readZohoQuota(headers: Headers): QuotaSignal[] {
  const limit = int(headers, 'x-rate-limit-limit');
  const remaining = int(headers, 'x-rate-limit-remaining');
  if (remaining === undefined || limit === 0) return [];
  if (remaining > 0) return [{ window: 'day', remaining }];
  const resetMs = rateLimitResetMs(headers);
  if (resetMs === undefined || resetMs <= MINUTE_WINDOW_MS) return [{ window: 'minute', remaining: 0 }];
  return [{ window: 'day', remaining: 0, resetMs }];
}
