import type { EmulatorClock } from '../kit/emulator-clock.js';

/**
 * Xero's limits (reference §3.7): per organisation 60 calls per minute, 5,000 per day and 5 at a time; per
 * app 10,000 per minute across organisations. Every response carries `X-DayLimit-Remaining`,
 * `X-MinLimit-Remaining` and `X-AppMinLimit-Remaining`; a breach answers 429 with `Retry-After` (seconds)
 * and `X-Rate-Limit-Problem` (`minute`, `day`, `concurrent`, `appminute`).
 * The minute windows are rolling (a log of the last minute's calls); the day runs to the next UTC midnight of
 * the emulator clock, or to `resetAt` when a test sets one (POST /__admin/day-limit), so a day-limit reset
 * can happen seconds later. Refused calls do not count.
 */
export interface RateLimits {
  ratePerMinute: number;
  dailyLimit: number;
  maxConcurrent: number;
  appRatePerMinute: number;
}

interface TenantUsage {
  minute: number[];
  dayUsed: number;
  dayLimit: number;
  dayResetAt: number;
  inFlight: number;
  maxInFlight: number;
}

export type LimitDecision =
  { ok: true; release: () => void } | { ok: false; problem: 'minute' | 'day' | 'concurrent' | 'appminute'; retryAfterSeconds: number };

const DAY = 86_400_000;

export class XeroRateLimiter {
  private tenants = new Map<string, TenantUsage>();
  private app: number[] = [];
  readonly refused = { minute: 0, day: 0, concurrent: 0, appminute: 0 };

  constructor(
    public limits: RateLimits,
    private readonly clock: EmulatorClock,
  ) {}

  private usage(tenantId: string): TenantUsage {
    let u = this.tenants.get(tenantId);
    const now = this.clock.now();
    if (!u) {
      u = { minute: [], dayUsed: 0, dayLimit: this.limits.dailyLimit, dayResetAt: nextMidnight(now), inFlight: 0, maxInFlight: 0 };
      this.tenants.set(tenantId, u);
    }
    if (now >= u.dayResetAt) {
      u.dayUsed = 0;
      u.dayLimit = this.limits.dailyLimit;
      u.dayResetAt = nextMidnight(now);
    }
    while (u.minute.length && u.minute[0]! <= now - 60_000) u.minute.shift();
    while (this.app.length && this.app[0]! <= now - 60_000) this.app.shift();
    return u;
  }

  acquire(tenantId: string): LimitDecision {
    const u = this.usage(tenantId);
    const now = this.clock.now();
    const secs = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
    if (u.dayLimit > 0 && u.dayUsed >= u.dayLimit) {
      this.refused.day++;
      return { ok: false, problem: 'day', retryAfterSeconds: secs(u.dayResetAt - now) };
    }
    if (this.limits.appRatePerMinute > 0 && this.app.length >= this.limits.appRatePerMinute) {
      this.refused.appminute++;
      return { ok: false, problem: 'appminute', retryAfterSeconds: secs(this.app[0]! + 60_000 - now) };
    }
    if (this.limits.ratePerMinute > 0 && u.minute.length >= this.limits.ratePerMinute) {
      this.refused.minute++;
      return { ok: false, problem: 'minute', retryAfterSeconds: secs(u.minute[0]! + 60_000 - now) };
    }
    if (this.limits.maxConcurrent > 0 && u.inFlight >= this.limits.maxConcurrent) {
      this.refused.concurrent++;
      return { ok: false, problem: 'concurrent', retryAfterSeconds: 1 };
    }
    u.minute.push(now);
    this.app.push(now);
    u.dayUsed++;
    u.inFlight++;
    u.maxInFlight = Math.max(u.maxInFlight, u.inFlight);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (!released) u.inFlight--;
        released = true;
      },
    };
  }

  headers(tenantId: string | undefined): Record<string, string> {
    const app = String(Math.max(0, this.limits.appRatePerMinute - this.app.length));
    if (tenantId === undefined) return { 'X-AppMinLimit-Remaining': app };
    const u = this.usage(tenantId);
    return {
      'X-DayLimit-Remaining': String(Math.max(0, u.dayLimit - u.dayUsed)),
      'X-MinLimit-Remaining': String(Math.max(0, this.limits.ratePerMinute - u.minute.length)),
      'X-AppMinLimit-Remaining': String(Math.max(0, this.limits.appRatePerMinute - this.app.length)),
    };
  }

  /** Test hook: set a tenant's day counter, its limit, and when the day resets. */
  setDay(tenantId: string, s: { used?: number; limit?: number; resetInSeconds?: number }): { used: number; limit: number; resetAt: string } {
    const u = this.usage(tenantId);
    if (s.limit !== undefined) u.dayLimit = s.limit;
    if (s.used !== undefined) u.dayUsed = s.used;
    if (s.resetInSeconds !== undefined) u.dayResetAt = this.clock.now() + s.resetInSeconds * 1000;
    return { used: u.dayUsed, limit: u.dayLimit, resetAt: new Date(u.dayResetAt).toISOString() };
  }

  snapshot(): Record<string, { usedToday: number; dayLimit: number; usedThisMinute: number; inFlight: number; maxInFlight: number }> {
    const out: Record<string, { usedToday: number; dayLimit: number; usedThisMinute: number; inFlight: number; maxInFlight: number }> = {};
    for (const id of this.tenants.keys()) {
      const u = this.usage(id);
      out[id] = { usedToday: u.dayUsed, dayLimit: u.dayLimit, usedThisMinute: u.minute.length, inFlight: u.inFlight, maxInFlight: u.maxInFlight };
    }
    return out;
  }

  reset(): void {
    this.tenants.clear();
    this.app = [];
    for (const k of Object.keys(this.refused) as Array<keyof typeof this.refused>) this.refused[k] = 0;
  }
}

function nextMidnight(now: number): number {
  return (Math.floor(now / DAY) + 1) * DAY;
}
