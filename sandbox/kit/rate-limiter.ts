/**
 * Request limits as the ERP emulators play them, on the emulator clock. Each vendor lists its rules in the
 * order it checks them; the first rule that refuses names the refusal, and a refused request counts
 * against nothing. A limit of 0 disables its rule. State is kept per key (an organisation, a realm, a
 * tenant); a rule with `scope: 'all'` is shared by every key (an app-wide limit).
 *
 * - `fixed`: a window of `windowMs` opened by the first request after the previous one expired.
 * - `rolling`: the requests of the last `windowMs` (a sliding log).
 * - `day`: a calendar day at `offsetMinutes` from UTC (a test may move its reset, see `setDay`).
 * - `concurrent`: requests admitted and not yet released.
 *
 * The vendor folder turns a refusal into the vendor's status, body and headers.
 */
export type LimitRule =
  | { name: string; kind: 'fixed' | 'rolling'; windowMs: number; limit: number; scope?: 'key' | 'all' }
  | { name: string; kind: 'day'; limit: number; offsetMinutes?: number }
  | { name: string; kind: 'concurrent'; limit: number };

export type Admission = { ok: true; release: () => void } | { ok: false; rule: string; retryAfterMs: number };

export interface RuleUsage {
  used: number;
  limit: number;
  /** When the oldest counted request stops counting (epoch ms; -Infinity when nothing counts). */
  resetAt: number;
  /** Concurrent rules: the most in flight at once since the last reset. */
  max?: number;
}

interface RuleState {
  stamps: number[];
  start: number;
  resetAt: number;
  count: number;
  limit?: number;
  max: number;
}

const DAY_MS = 86_400_000;

export class RateLimiter {
  private state = new Map<string, Map<string, RuleState>>();
  /** Refusals, by rule name. */
  readonly refused: Record<string, number>;

  constructor(
    private readonly rules: LimitRule[],
    private readonly clock: { now(): number },
  ) {
    this.refused = Object.fromEntries(rules.map((r) => [r.name, 0]));
  }

  /** The configured limit of each rule. */
  get limits(): Record<string, number> {
    return Object.fromEntries(this.rules.map((r) => [r.name, r.limit]));
  }

  /** Changes limits by rule name (unknown names are ignored). */
  configure(limits: Record<string, number | undefined>): void {
    for (const r of this.rules) {
      const v = limits[r.name];
      if (v !== undefined) r.limit = v;
    }
  }

  /** Admits one request for `key`, or says which rule refused it and when to retry. */
  acquire(key = ''): Admission {
    const now = this.clock.now();
    const states = this.rules.map((r) => [r, this.rolled(r, key, now)] as const);
    for (const [r, s] of states) {
      const limit = s.limit ?? r.limit;
      const used = r.kind === 'rolling' ? s.stamps.length : s.count;
      if (limit > 0 && used >= limit) {
        this.refused[r.name] = (this.refused[r.name] ?? 0) + 1;
        return { ok: false, rule: r.name, retryAfterMs: r.kind === 'concurrent' ? 1000 : resetAt(r, s) - now };
      }
    }
    const releases: RuleState[] = [];
    for (const [r, s] of states) {
      if (r.kind === 'rolling') s.stamps.push(now);
      else {
        if (r.kind === 'fixed' && s.count === 0) s.start = now;
        s.count += 1;
      }
      if (r.kind === 'concurrent') {
        s.max = Math.max(s.max, s.count);
        releases.push(s);
      }
    }
    let released = false;
    return {
      ok: true,
      release: () => {
        if (!released) for (const s of releases) s.count = Math.max(0, s.count - 1);
        released = true;
      },
    };
  }

  /** Each rule's usage for `key`, without counting a request. */
  usage(key = ''): Record<string, RuleUsage> {
    const now = this.clock.now();
    const out: Record<string, RuleUsage> = {};
    for (const r of this.rules) {
      const s = this.rolled(r, key, now);
      out[r.name] = {
        used: r.kind === 'rolling' ? s.stamps.length : s.count,
        limit: s.limit ?? r.limit,
        resetAt: resetAt(r, s),
        ...(r.kind === 'concurrent' ? { max: s.max } : {}),
      };
    }
    return out;
  }

  /** The keys seen since the last reset. */
  keys(): string[] {
    return [...this.state.keys()].filter((k) => k !== '*' && k !== '');
  }

  /** Test hook: a day rule's counter, its limit for this day only, and when the day resets. */
  setDay(key: string, name: string, s: { used?: number; limit?: number; resetAt?: number }): RuleUsage {
    const rule = this.rules.find((r) => r.name === name && r.kind === 'day');
    if (!rule) throw new Error(`no day rule ${name}`);
    const state = this.rolled(rule, key, this.clock.now());
    if (s.limit !== undefined) state.limit = s.limit;
    if (s.used !== undefined) state.count = s.used;
    if (s.resetAt !== undefined) state.resetAt = s.resetAt;
    return this.usage(key)[name]!;
  }

  /** Forgets every counter and refusal. */
  reset(): void {
    this.state.clear();
    for (const k of Object.keys(this.refused)) this.refused[k] = 0;
  }

  /** The rule's state for `key`, with expired windows emptied. */
  private rolled(r: LimitRule, key: string, now: number): RuleState {
    const k = 'scope' in r && r.scope === 'all' ? '*' : key;
    let byRule = this.state.get(k);
    if (!byRule) this.state.set(k, (byRule = new Map()));
    let s = byRule.get(r.name);
    if (!s) byRule.set(r.name, (s = { stamps: [], start: -Infinity, resetAt: -Infinity, count: 0, max: 0 }));
    if (r.kind === 'rolling') s.stamps = s.stamps.filter((t) => t > now - r.windowMs && t <= now);
    else if (r.kind === 'fixed' && (now >= s.start + r.windowMs || now < s.start)) {
      s.start = -Infinity;
      s.count = 0;
    } else if (r.kind === 'day' && (now >= s.resetAt || now < s.start)) {
      const offsetMs = (r.offsetMinutes ?? 0) * 60_000;
      s.start = Math.floor((now + offsetMs) / DAY_MS) * DAY_MS - offsetMs;
      s.resetAt = s.start + DAY_MS;
      s.count = 0;
      s.limit = undefined;
    }
    return s;
  }
}

function resetAt(r: LimitRule, s: RuleState): number {
  if (r.kind === 'rolling') return s.stamps.length ? s.stamps[0]! + r.windowMs : -Infinity;
  if (r.kind === 'fixed') return s.start + r.windowMs;
  return s.resetAt;
}
