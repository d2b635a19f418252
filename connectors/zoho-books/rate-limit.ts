import type { Headers } from '../../src/http/vendor-client.js';
import { MINUTE_WINDOW_MS, type QuotaSignal } from '../../src/waits/vendor-waits.js';

/**
 * Zoho's `X-Rate-Limit-Limit / -Remaining / -Reset` headers, read on every Books response
 * (https://www.zoho.com/books/api/v3/introduction/#api-call-limit; the headers as consumed by
 * https://github.com/hotgluexyz/tap-zohobooks). They describe the organisation's daily allowance, except
 * on a per-minute 429 where they describe the minute window that was hit (Remaining 0, Reset ≤ 60 s).
 * Classification only; the vendor client decides what to do:
 *
 * - Remaining > 0 → the day's remaining quota.
 * - Remaining 0 and Reset > 60 s → the day is spent (the client parks the connection until the reset).
 * - Remaining 0 and Reset ≤ 60 s → a minute window (or the last minute of the day) at 0.
 * - Limit 0 means "no limit" (sandbox with limits off): nothing to report.
 */
function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return (Array.isArray(v) ? v[0] : v)?.trim();
}

function int(headers: Headers, name: string): number | undefined {
  const v = header(headers, name);
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
}

/** `X-Rate-Limit-Reset` (seconds) → ms, or undefined when absent or malformed. */
export function rateLimitResetMs(headers: Headers): number | undefined {
  const raw = header(headers, 'x-rate-limit-reset');
  if (!raw || !/^\d+(\.\d+)?$/.test(raw)) return undefined;
  return Math.round(Number(raw) * 1000);
}

export function readQuota(headers: Headers): QuotaSignal[] {
  const limit = int(headers, 'x-rate-limit-limit');
  const remaining = int(headers, 'x-rate-limit-remaining');
  if (remaining === undefined || limit === 0) return [];
  if (remaining > 0) return [{ window: 'day', remaining }];
  const resetMs = rateLimitResetMs(headers);
  if (resetMs === undefined || resetMs <= MINUTE_WINDOW_MS) return [{ window: 'minute', remaining: 0 }];
  return [{ window: 'day', remaining: 0, resetMs }];
}
