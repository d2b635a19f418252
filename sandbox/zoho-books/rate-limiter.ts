import type { EmulatorClock } from '../kit/emulator-clock.js';
import { RateLimiter } from '../kit/rate-limiter.js';
import { zohoErrors, type ZohoApiError } from './zoho-error.js';

/**
 * Zoho Books API limits per organisation: `ratePerMinute` (100) requests per minute and a daily cap by
 * plan (1,000–10,000). https://www.zoho.com/books/api/v3/introduction/
 *
 * Headers on every Books response: `X-Rate-Limit-Limit`, `X-Rate-Limit-Remaining`, `X-Rate-Limit-Reset`
 * (seconds). They describe the daily allowance (as the Singer tap-zohobooks reads them), except on a
 * per-minute 429, where they describe the minute window that was hit (Limit = per-minute limit,
 * Remaining = 0, Reset = seconds until the window frees), so "wait Reset seconds when Remaining is 0" is
 * right in both cases. No `Retry-After`: Zoho does not document one.
 *
 * The minute window is fixed, opened by the first request after the previous one expired; the day is the
 * organisation's calendar day. The day is checked first. Refused requests do not count. Limits of 0
 * disable the check.
 */
export interface RateLimits {
  ratePerMinute: number;
  dailyLimit: number;
}

export type RateDecision =
  { ok: true; headers: Record<string, string> } | { ok: false; error: ZohoApiError; window: 'minute' | 'day' };

export class ZohoRateLimiter {
  private readonly limiter: RateLimiter;

  constructor(
    limits: RateLimits,
    private readonly clock: EmulatorClock,
    offsetMinutes: number,
  ) {
    this.limiter = new RateLimiter(
      [
        { name: 'day', kind: 'day', limit: limits.dailyLimit, offsetMinutes },
        { name: 'minute', kind: 'fixed', windowMs: 60_000, limit: limits.ratePerMinute },
      ],
      clock,
    );
  }

  /** 429s answered, by window. */
  get refused(): { minute: number; day: number } {
    return { minute: this.limiter.refused.minute!, day: this.limiter.refused.day! };
  }

  get current(): RateLimits & { usedToday: number; usedThisMinute: number } {
    const u = this.limiter.usage();
    return {
      ratePerMinute: u.minute!.limit,
      dailyLimit: u.day!.limit,
      usedToday: u.day!.used,
      usedThisMinute: u.minute!.used,
    };
  }

  configure(limits: Partial<RateLimits>): void {
    this.limiter.configure({ minute: limits.ratePerMinute, day: limits.dailyLimit });
  }

  reset(): void {
    this.limiter.reset();
  }

  /** Counts one request, or refuses it with Zoho's 429 body and headers. */
  consume(): RateDecision {
    const a = this.limiter.acquire();
    if (a.ok) return { ok: true, headers: this.dailyHeaders() };
    if (a.rule === 'day') {
      const e = zohoErrors.dailyLimit(this.current.dailyLimit);
      Object.assign(e.headers, this.dailyHeaders());
      return { ok: false, error: e, window: 'day' };
    }
    return { ok: false, error: this.minuteError(), window: 'minute' };
  }

  /** A per-minute 429 (also used for injected 429 faults, with their own reset). */
  minuteError(resetSeconds = this.secondsUntil(this.limiter.usage().minute!.resetAt)): ZohoApiError {
    const e = zohoErrors.perMinuteLimit();
    Object.assign(e.headers, {
      'X-Rate-Limit-Limit': String(this.current.ratePerMinute),
      'X-Rate-Limit-Remaining': '0',
      'X-Rate-Limit-Reset': String(resetSeconds),
    });
    return e;
  }

  /** The daily counters, without consuming (for responses that are not counted, such as 401s). */
  dailyHeaders(): Record<string, string> {
    const day = this.limiter.usage().day!;
    return {
      'X-Rate-Limit-Limit': String(day.limit),
      'X-Rate-Limit-Remaining': String(Math.max(0, day.limit - day.used)),
      'X-Rate-Limit-Reset': String(this.secondsUntil(day.resetAt)),
    };
  }

  private secondsUntil(at: number): number {
    return Math.max(1, Math.ceil((at - this.clock.now()) / 1000));
  }
}
