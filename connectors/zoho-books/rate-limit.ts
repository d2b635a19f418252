import type { Logger } from 'pino';
import type { Headers } from '../../src/http/vendor-client.js';
import { rateLimitResetMs } from './error-table.js';

/**
 * Zoho's `X-Rate-Limit-Limit / -Remaining / -Reset` headers, read on every Books response (reference
 * §1.8). They describe the organisation's daily allowance, except on a per-minute 429 where they describe
 * the minute window that was hit (Remaining 0, Reset ≤ 60 s). So:
 *
 * - Remaining > 0 → report the day's remaining quota.
 * - Remaining 0 and Reset > 60 s → the day is spent: report 0 and park the connection until the reset,
 *   so no worker of this connection spends another call (Zoho refuses them anyway).
 * - Remaining 0 and Reset ≤ 60 s → a minute window (or the last minute of the day): report the minute
 *   at 0 and do not park; the 429 itself is waited out in-process (RateLimitedError scope 'minute').
 * - Limit 0 means "no limit" (sandbox with limits off): ignored.
 */
export interface RateLimitHooks {
  onQuota?: (window: 'minute' | 'day', remaining: number) => void;
  park?: (untilMs: number) => Promise<void>;
  logger?: Logger;
  now?: () => number;
}

export const MINUTE_WINDOW_MS = 60_000;

function int(headers: Headers, name: string): number | undefined {
  const raw = headers[name];
  const v = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
}

export function rateLimitObserver(hooks: RateLimitHooks): (headers: Headers) => void {
  const now = hooks.now ?? Date.now;
  return (headers) => {
    const limit = int(headers, 'x-rate-limit-limit');
    const remaining = int(headers, 'x-rate-limit-remaining');
    if (remaining === undefined || limit === 0) return;
    if (remaining > 0) {
      hooks.onQuota?.('day', remaining);
      return;
    }
    const resetMs = rateLimitResetMs(headers);
    if (resetMs === undefined || resetMs <= MINUTE_WINDOW_MS) {
      hooks.onQuota?.('minute', 0);
      return;
    }
    hooks.onQuota?.('day', 0);
    const until = now() + resetMs;
    hooks.logger?.warn({ until: new Date(until).toISOString() }, 'zoho-books daily call limit reached; parking the connection until the reset');
    hooks.park?.(until).catch((err: unknown) => hooks.logger?.error({ err }, 'could not park the connection'));
  };
}
