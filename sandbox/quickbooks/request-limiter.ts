import { RateLimiter } from '../kit/rate-limiter.js';

/**
 * QuickBooks Online's per-realm limits: `ratePerMinute` requests per minute (500) and `maxInFlight`
 * concurrent requests (10). Past either, 429 ThrottleExceeded (code 3001). The concurrency cap is checked
 * first; the minute is a rolling 60-s window on the emulator clock; refused requests do not count. 0
 * disables a limit.
 * https://blogs.intuit.com/blog/2016/08/08/idg-concurrent-api-use-changes-coming-soon/
 */
export class RequestLimiter {
  private readonly limiter: RateLimiter;

  constructor(limits: { ratePerMinute: number; maxInFlight: number }, now: () => number) {
    this.limiter = new RateLimiter(
      [
        { name: 'inFlight', kind: 'concurrent', limit: limits.maxInFlight },
        { name: 'minute', kind: 'rolling', windowMs: 60_000, limit: limits.ratePerMinute },
      ],
      { now },
    );
  }

  get limits(): { ratePerMinute: number; maxInFlight: number } {
    const l = this.limiter.limits;
    return { ratePerMinute: l.minute!, maxInFlight: l.inFlight! };
  }

  configure(limits: { ratePerMinute?: number; maxInFlight?: number }): void {
    this.limiter.configure({ minute: limits.ratePerMinute, inFlight: limits.maxInFlight });
  }

  get throttled(): { minute: number; inFlight: number } {
    return { minute: this.limiter.refused.minute!, inFlight: this.limiter.refused.inFlight! };
  }

  get maxInFlightSeen(): number {
    return this.limiter.usage().inFlight!.max ?? 0;
  }

  /** Takes a slot (release it when the request is answered), or says which limit refused it. */
  enter(): { ok: true; release: () => void } | { ok: false; limit: 'minute' | 'inFlight' } {
    const a = this.limiter.acquire();
    return a.ok ? a : { ok: false, limit: a.rule as 'minute' | 'inFlight' };
  }

  reset(): void {
    this.limiter.reset();
  }
}
