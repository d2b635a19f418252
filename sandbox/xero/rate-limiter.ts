import type { EmulatorClock } from '../kit/emulator-clock.js';
import { RateLimiter } from '../kit/rate-limiter.js';

/**
 * Xero's limits: per organisation 60 calls per minute, 5,000 per day and 5 at a time; per app 10,000 per
 * minute across organisations. Every response carries `X-DayLimit-Remaining`, `X-MinLimit-Remaining` and
 * `X-AppMinLimit-Remaining`; a breach answers 429 with `Retry-After` (seconds) and `X-Rate-Limit-Problem`
 * (`minute`, `day`, `concurrent`, `appminute`).
 * https://developer.xero.com/documentation/guides/oauth2/limits/
 * The minute windows are rolling (a log of the last minute's calls); the day runs to the next UTC midnight of
 * the emulator clock, or to the instant a test sets (POST /__admin/day-limit), so a day-limit reset can
 * happen seconds later. Checked in the order day, app minute, minute, concurrent; refused calls do not count.
 */
export interface RateLimits {
  ratePerMinute: number;
  dailyLimit: number;
  maxConcurrent: number;
  appRatePerMinute: number;
}

type Problem = 'minute' | 'day' | 'concurrent' | 'appminute';
export type LimitDecision =
  { ok: true; release: () => void } | { ok: false; problem: Problem; retryAfterSeconds: number };

export interface TenantUsage {
  usedToday: number;
  dayLimit: number;
  usedThisMinute: number;
  inFlight: number;
  maxInFlight: number;
}

export class XeroRateLimiter {
  private readonly limiter: RateLimiter;

  constructor(
    limits: RateLimits,
    private readonly clock: EmulatorClock,
  ) {
    this.limiter = new RateLimiter(
      [
        { name: 'day', kind: 'day', limit: limits.dailyLimit },
        { name: 'appminute', kind: 'rolling', windowMs: 60_000, limit: limits.appRatePerMinute, scope: 'all' },
        { name: 'minute', kind: 'rolling', windowMs: 60_000, limit: limits.ratePerMinute },
        { name: 'concurrent', kind: 'concurrent', limit: limits.maxConcurrent },
      ],
      clock,
    );
  }

  get limits(): RateLimits {
    const l = this.limiter.limits;
    return {
      ratePerMinute: l.minute!,
      dailyLimit: l.day!,
      maxConcurrent: l.concurrent!,
      appRatePerMinute: l.appminute!,
    };
  }

  set limits(limits: RateLimits) {
    this.limiter.configure({
      minute: limits.ratePerMinute,
      day: limits.dailyLimit,
      concurrent: limits.maxConcurrent,
      appminute: limits.appRatePerMinute,
    });
  }

  get refused(): Record<Problem, number> {
    const r = this.limiter.refused;
    return { minute: r.minute!, day: r.day!, concurrent: r.concurrent!, appminute: r.appminute! };
  }

  acquire(tenantId: string): LimitDecision {
    const a = this.limiter.acquire(tenantId);
    return a.ok
      ? a
      : { ok: false, problem: a.rule as Problem, retryAfterSeconds: Math.max(1, Math.ceil(a.retryAfterMs / 1000)) };
  }

  headers(tenantId: string | undefined): Record<string, string> {
    const u = this.limiter.usage(tenantId ?? '');
    const app = String(Math.max(0, u.appminute!.limit - u.appminute!.used));
    if (tenantId === undefined) return { 'X-AppMinLimit-Remaining': app };
    return {
      'X-DayLimit-Remaining': String(Math.max(0, u.day!.limit - u.day!.used)),
      'X-MinLimit-Remaining': String(Math.max(0, u.minute!.limit - u.minute!.used)),
      'X-AppMinLimit-Remaining': app,
    };
  }

  /** Test hook: set a tenant's day counter, its limit, and when the day resets. */
  setDay(
    tenantId: string,
    s: { used?: number; limit?: number; resetInSeconds?: number },
  ): { used: number; limit: number; resetAt: string } {
    const resetAt = s.resetInSeconds === undefined ? undefined : this.clock.now() + s.resetInSeconds * 1000;
    const day = this.limiter.setDay(tenantId, 'day', { used: s.used, limit: s.limit, resetAt });
    return { used: day.used, limit: day.limit, resetAt: new Date(day.resetAt).toISOString() };
  }

  snapshot(): Record<string, TenantUsage> {
    const out: Record<string, TenantUsage> = {};
    for (const id of this.limiter.keys()) {
      const u = this.limiter.usage(id);
      out[id] = {
        usedToday: u.day!.used,
        dayLimit: u.day!.limit,
        usedThisMinute: u.minute!.used,
        inFlight: u.concurrent!.used,
        maxInFlight: u.concurrent!.max ?? 0,
      };
    }
    return out;
  }

  reset(): void {
    this.limiter.reset();
  }
}
