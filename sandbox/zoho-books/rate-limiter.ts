import type { EmulatorClock } from '../kit/emulator-clock.js';
import { zohoErrors, type ZohoApiError } from './zoho-error.js';

/**
 * Zoho Books API limits per organisation: `ratePerMinute` (100) requests per minute and a daily cap by
 * plan (1,000–10,000). https://www.zoho.com/books/api/v3/introduction/ — reference [Z12][Z13][Z14]; headers as
 * consumed by tap-zohobooks [Z8].
 *
 * Headers on every Books response: `X-Rate-Limit-Limit`, `X-Rate-Limit-Remaining`, `X-Rate-Limit-Reset`
 * (seconds). They describe the daily allowance, as tap-zohobooks consumes them — except on a per-minute
 * 429, where they describe the minute window that was hit (Limit = per-minute limit, Remaining = 0, Reset =
 * seconds until the window frees), so "wait Reset seconds when Remaining is 0" is right in both cases.
 * No `Retry-After`: Zoho does not document one.
 *
 * The minute window is fixed, opened by the first request after the previous one expired; the day is the
 * organisation's calendar day. Refused requests do not count. Limits of 0 disable the check.
 */
export interface RateLimits {
  ratePerMinute: number;
  dailyLimit: number;
}

export type RateDecision = { ok: true; headers: Record<string, string> } | { ok: false; error: ZohoApiError; window: 'minute' | 'day' };

const DAY_MS = 86_400_000;

export class ZohoRateLimiter {
  private windowStart = -Infinity;
  private windowCount = 0;
  private day = -1;
  private dayCount = 0;
  /** 429s answered, by window. */
  readonly refused = { minute: 0, day: 0 };

  constructor(
    private limits: RateLimits,
    private readonly clock: EmulatorClock,
    private readonly offsetMinutes: number,
  ) {}

  get current(): RateLimits & { usedToday: number; usedThisMinute: number } {
    this.roll();
    return { ...this.limits, usedToday: this.dayCount, usedThisMinute: this.windowCount };
  }

  configure(limits: Partial<RateLimits>): void {
    this.limits = { ...this.limits, ...limits };
  }

  reset(): void {
    this.windowStart = -Infinity;
    this.windowCount = 0;
    this.day = -1;
    this.dayCount = 0;
    this.refused.minute = 0;
    this.refused.day = 0;
  }

  /** Counts one request, or refuses it with Zoho's 429 body and headers. */
  consume(): RateDecision {
    this.roll();
    const { ratePerMinute, dailyLimit } = this.limits;
    if (dailyLimit > 0 && this.dayCount >= dailyLimit) {
      this.refused.day += 1;
      const e = zohoErrors.dailyLimit(dailyLimit);
      Object.assign(e.headers, this.dailyHeaders());
      return { ok: false, error: e, window: 'day' };
    }
    if (ratePerMinute > 0 && this.windowCount >= ratePerMinute) {
      this.refused.minute += 1;
      return { ok: false, error: this.minuteError(), window: 'minute' };
    }
    if (this.windowCount === 0) this.windowStart = this.clock.now();
    this.windowCount += 1;
    this.dayCount += 1;
    return { ok: true, headers: this.dailyHeaders() };
  }

  /** A per-minute 429 (also used for injected 429 faults, with their own reset). */
  minuteError(resetSeconds = this.minuteResetSeconds()): ZohoApiError {
    const e = zohoErrors.perMinuteLimit();
    Object.assign(e.headers, {
      'X-Rate-Limit-Limit': String(this.limits.ratePerMinute),
      'X-Rate-Limit-Remaining': '0',
      'X-Rate-Limit-Reset': String(resetSeconds),
    });
    return e;
  }

  /** The daily counters, without consuming (for responses that are not counted, such as 401s). */
  dailyHeaders(): Record<string, string> {
    this.roll();
    const { dailyLimit } = this.limits;
    const midnight = (this.day + 1) * DAY_MS - this.offsetMinutes * 60_000;
    return {
      'X-Rate-Limit-Limit': String(dailyLimit),
      'X-Rate-Limit-Remaining': String(Math.max(0, dailyLimit - this.dayCount)),
      'X-Rate-Limit-Reset': String(Math.max(1, Math.ceil((midnight - this.clock.now()) / 1000))),
    };
  }

  private minuteResetSeconds(): number {
    return Math.max(1, Math.ceil((this.windowStart + 60_000 - this.clock.now()) / 1000));
  }

  private roll(): void {
    const now = this.clock.now();
    if (now >= this.windowStart + 60_000 || now < this.windowStart) {
      this.windowStart = -Infinity;
      this.windowCount = 0;
    }
    const day = Math.floor((now + this.offsetMinutes * 60_000) / DAY_MS);
    if (day !== this.day) {
      this.day = day;
      this.dayCount = 0;
    }
  }
}
