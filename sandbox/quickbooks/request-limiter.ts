/**
 * QBO's per-realm limits (reference §2.8 [Q7][Q8]): `ratePerMinute` requests per minute (500) and
 * `maxInFlight` concurrent requests (10; "10 requests per second per realm and app", once worded as
 * "10 concurrent"). Past either, 429 ThrottleExceeded (code 3001). The minute is a sliding 60-s window on
 * the emulator clock; refused requests do not count. 0 disables a limit.
 */
export class RequestLimiter {
  private stamps: number[] = [];
  inFlight = 0;
  maxInFlightSeen = 0;
  throttled = { minute: 0, inFlight: 0 };

  constructor(
    public limits: { ratePerMinute: number; maxInFlight: number },
    private readonly now: () => number,
  ) {}

  /** Takes a slot, or says which limit refused it. Call `leave()` after an admitted request. */
  enter(): { ok: true } | { ok: false; limit: 'minute' | 'inFlight' } {
    const now = this.now();
    this.stamps = this.stamps.filter((t) => t > now - 60_000 && t <= now);
    if (this.limits.maxInFlight > 0 && this.inFlight >= this.limits.maxInFlight) {
      this.throttled.inFlight += 1;
      return { ok: false, limit: 'inFlight' };
    }
    if (this.limits.ratePerMinute > 0 && this.stamps.length >= this.limits.ratePerMinute) {
      this.throttled.minute += 1;
      return { ok: false, limit: 'minute' };
    }
    this.stamps.push(now);
    this.inFlight += 1;
    this.maxInFlightSeen = Math.max(this.maxInFlightSeen, this.inFlight);
    return { ok: true };
  }

  leave(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
  }

  reset(): void {
    this.stamps = [];
    this.throttled = { minute: 0, inFlight: 0 };
    this.maxInFlightSeen = this.inFlight;
  }
}
