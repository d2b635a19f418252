import type { Headers } from '../../src/http/vendor-client.js';
import type { QuotaSignal } from '../../src/waits/vendor-waits.js';

/**
 * Xero's rate-limit signals (https://developer.xero.com/documentation/guides/oauth2/limits/,
 * https://developer.xero.com/faq/limits). Classification only; src/waits/vendor-waits.ts decides.
 * - `X-Rate-Limit-Problem` on a 429 names the breached limit. Community code checks lowercase `minute` and
 *   `day`; `DayLimit`, `Minute limit`, `concurrent`, `AppMinute` also appear. Read loosely and
 *   case-insensitively: anything mentioning "day"/"daily" is the day limit (scope 'day'), everything
 *   else is short-lived (minute, app-minute, concurrency: scope 'minute').
 * - `X-DayLimit-Remaining`, `X-MinLimit-Remaining`, `X-AppMinLimit-Remaining` on every response: reported
 *   as the day and minute quotas left (minute = the smaller of the organisation's and the app's).
 */
export function rateLimitScope(problem: string | string[] | undefined): 'minute' | 'day' {
  const text = (Array.isArray(problem) ? problem.join(' ') : (problem ?? '')).toLowerCase();
  return /day|daily/.test(text) ? 'day' : 'minute';
}

function header(headers: Headers, name: string): number | undefined {
  const raw = headers[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}

/** The day and minute quotas left, from the headers on every response. */
export function readQuota(headers: Headers): QuotaSignal[] {
  const signals: QuotaSignal[] = [];
  const day = header(headers, 'x-daylimit-remaining');
  if (day !== undefined) signals.push({ window: 'day', remaining: day });
  const org = header(headers, 'x-minlimit-remaining');
  const app = header(headers, 'x-appminlimit-remaining');
  const minute = org !== undefined && app !== undefined ? Math.min(org, app) : (org ?? app);
  if (minute !== undefined) signals.push({ window: 'minute', remaining: minute });
  return signals;
}
