import { z } from 'zod';

/**
 * Fault injection shared by every emulator: settable at start (CLI flags) and at run time
 * (POST /__admin/faults). Applied before routing to every non-admin request.
 */
export const FaultConfig = z.strictObject({
  /** Added latency per request, milliseconds. */
  latencyMs: z.number().int().min(0).default(0),
  /** Extra random latency on top, 0..jitterMs. */
  latencyJitterMs: z.number().int().min(0).default(0),
  /** Probability 0..1 that a request answers `errorStatus`. */
  errorRate: z.number().min(0).max(1).default(0),
  errorStatus: z.number().int().min(400).max(599).default(503),
  /** Probability 0..1 that a request answers 429 with Retry-After. */
  rateLimitRate: z.number().min(0).max(1).default(0),
  /** Answer the next N requests with 429 (deterministic storms for tests). */
  rateLimitNext: z.number().int().min(0).default(0),
  retryAfterSeconds: z.number().int().min(0).default(1),
  /**
   * A real rate limit: at most N requests per wall-clock second; past it, 429 with Retry-After 1
   * (0 = no limit). Lets benchmarks measure how close a client runs to a limit without 429s.
   */
  limitPerSecond: z.number().int().min(0).default(0),
  /** Answer the next N requests with `errorStatus` (deterministic). */
  errorNext: z.number().int().min(0).default(0),
  /** Probability 0..1 that the connection is destroyed without an answer. */
  resetRate: z.number().min(0).max(1).default(0),
  /** Outage: every request between these instants (ISO-8601, wall clock) answers 503. */
  outageFrom: z.iso.datetime({ offset: true }).optional(),
  outageUntil: z.iso.datetime({ offset: true }).optional(),
  /** Outage for the next N milliseconds from when the faults are set (convenience for tests). */
  outageForMs: z.number().int().min(0).optional(),
  /**
   * Only requests presenting one of these keys meet the faults (a service that limits per key throttles
   * one company's key, not another's); unset: every request.
   */
  keys: z.array(z.string().min(1)).min(1).optional(),
});
export type FaultConfig = z.infer<typeof FaultConfig>;
export type FaultConfigInput = z.input<typeof FaultConfig>;

export type FaultDecision =
  | { kind: 'none'; delayMs: number }
  | { kind: 'reset'; delayMs: number }
  | { kind: 'status'; delayMs: number; status: number; retryAfterSeconds?: number; reason: string };

export class FaultInjector {
  private config: FaultConfig = FaultConfig.parse({});
  private outage?: { from: number; until: number };
  private window = { second: 0, count: 0 };
  /** 429s answered because of limitPerSecond (for benchmarks). */
  limited = 0;

  constructor(
    initial: FaultConfigInput = {},
    private readonly random: () => number = Math.random,
    /** The wall clock outage windows and `limitPerSecond` read (injectable, so tests need not sleep). */
    private readonly wall: () => number = Date.now,
  ) {
    this.set(initial);
  }

  /** Replaces the whole fault configuration (missing fields fall back to "no fault"). */
  set(input: FaultConfigInput): FaultConfig {
    this.config = FaultConfig.parse(input);
    const { outageFrom, outageUntil, outageForMs } = this.config;
    if (outageForMs !== undefined) this.outage = { from: this.wall(), until: this.wall() + outageForMs };
    else if (outageFrom || outageUntil)
      this.outage = {
        from: outageFrom ? Date.parse(outageFrom) : 0,
        until: outageUntil ? Date.parse(outageUntil) : Number.MAX_SAFE_INTEGER,
      };
    else this.outage = undefined;
    return this.config;
  }

  get current(): FaultConfig {
    return this.config;
  }

  /** The fault for one request; `key` is the key it presented (faults limited to `keys` spare the others). */
  decide(key?: string): FaultDecision {
    const c = this.config;
    if (c.keys && (key === undefined || !c.keys.includes(key))) return { kind: 'none', delayMs: 0 };
    const delayMs = c.latencyMs + (c.latencyJitterMs ? Math.floor(this.random() * c.latencyJitterMs) : 0);
    const now = this.wall();
    if (this.outage && now >= this.outage.from && now < this.outage.until) {
      return { kind: 'status', delayMs, status: 503, reason: 'outage window' };
    }
    if (c.limitPerSecond > 0) {
      const second = Math.floor(now / 1000);
      if (this.window.second !== second) this.window = { second, count: 0 };
      if (++this.window.count > c.limitPerSecond) {
        this.limited++;
        return { kind: 'status', delayMs, status: 429, retryAfterSeconds: 1, reason: 'rate limit exceeded' };
      }
    }
    if (c.rateLimitNext > 0) {
      c.rateLimitNext -= 1;
      return { kind: 'status', delayMs, status: 429, retryAfterSeconds: c.retryAfterSeconds, reason: 'rate limited' };
    }
    if (c.errorNext > 0) {
      c.errorNext -= 1;
      return { kind: 'status', delayMs, status: c.errorStatus, reason: 'injected error' };
    }
    if (c.resetRate > 0 && this.random() < c.resetRate) return { kind: 'reset', delayMs };
    if (c.rateLimitRate > 0 && this.random() < c.rateLimitRate) {
      return { kind: 'status', delayMs, status: 429, retryAfterSeconds: c.retryAfterSeconds, reason: 'rate limited' };
    }
    if (c.errorRate > 0 && this.random() < c.errorRate) {
      return { kind: 'status', delayMs, status: c.errorStatus, reason: 'injected error' };
    }
    return { kind: 'none', delayMs };
  }
}
