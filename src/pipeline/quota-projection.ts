/**
 * What a connection's schedule costs in vendor calls, against what its vendor bills (docs/scheduling.md,
 * "Quotas as the vendors bill them"). Pure: `erp-sync check`, `erp-sync connections` and `preview` hand
 * it the schedule, the connector's call costs (src/connector/quota-profile.ts) and the budgets.
 */

const DAY_SECONDS = 86_400;
const DAY_MS = DAY_SECONDS * 1000;

/** Past this share of a budget the schedule is `tight`: changed records' detail calls, retries and reconciles need the rest. */
export const TIGHT_SHARE = 0.8;

export type QuotaVerdict = 'fits' | 'tight' | 'exceeds';

export interface ScheduleCost {
  /** Lists per stream per run (what a run costs when nothing changed), summed over the connection's streams. */
  listCallsPerRun: number;
  everySeconds: number;
  /** Calls of one lookups refresh, and how often a process refreshes them (0: every run). */
  lookupCalls: number;
  lookupsCacheSeconds: number;
}

export interface CallsPerDay {
  lists: number;
  lookups: number;
  total: number;
}

/** Calls a day at one schedule: lists × runs a day, plus lookups at their cache's pace (never more often than the runs). */
export function callsPerDay(s: ScheduleCost): CallsPerDay {
  const runs = DAY_SECONDS / s.everySeconds;
  const refreshes = Math.min(runs, DAY_SECONDS / Math.max(s.lookupsCacheSeconds, 1));
  const lists = Math.ceil(s.listCallsPerRun * runs);
  const lookups = Math.ceil(s.lookupCalls * refreshes);
  return { lists, lookups, total: lists + lookups };
}

export interface QuotaProjectionInput {
  /** At `schedule.everySeconds`: how the connection polls, and how it falls back when its webhooks are not healthy. */
  polling: CallsPerDay;
  /** At `schedule.withWebhooksEverySeconds`, when webhooks are configured (the incremental pull is then a safety net). */
  safetyNet?: CallsPerDay;
  /** The connection's daily cap (the plan's, the tier's, or rateBudget.perDay); undefined or 0: none. */
  dayCap?: number;
  /** An app-wide monthly budget (QuickBooks), shared by `connections` connections whose calls a day sum to `appPerDay`. */
  month?: { app: string; budget: number; used: number; connections: number; appPerDay: number };
  now: number;
}

export interface QuotaProjection {
  perDay: { polling: CallsPerDay; safetyNet: CallsPerDay | null };
  day: { cap: number | null; share: number | null; verdict: QuotaVerdict };
  month: {
    app: string;
    budget: number;
    used: number;
    connections: number;
    /** Every sharing connection's calls over a whole calendar month at their schedules. */
    perMonth: number;
    /** What this month ends at: used so far + the days left at the schedules. */
    projected: number;
    share: number;
    verdict: QuotaVerdict;
  } | null;
  verdict: QuotaVerdict;
  /** One sentence saying whether the schedule fits, and what to change when it does not. */
  message: string;
}

const verdictOf = (share: number): QuotaVerdict => (share > 1 ? 'exceeds' : share > TIGHT_SHARE ? 'tight' : 'fits');
const worst = (a: QuotaVerdict, b: QuotaVerdict): QuotaVerdict =>
  a === 'exceeds' || b === 'exceeds' ? 'exceeds' : a === 'tight' || b === 'tight' ? 'tight' : 'fits';
const pct = (share: number) => `${Math.round(share * 100)}%`;

/** The UTC calendar month of `now`: its length in days and the days left (fractional). */
export function monthOf(now: number): { days: number; daysLeft: number; endsAt: number } {
  const d = new Date(now);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const end = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return { days: (end - start) / DAY_MS, daysLeft: (end - now) / DAY_MS, endsAt: end };
}

/**
 * The day's verdict: the polling schedule against the cap; with webhooks, the safety net decides and a
 * polling fallback that would not fit makes it `tight` (it holds only while the webhooks do). The month's:
 * the larger of a whole month at the schedules and what this month ends at. The worse of the two wins.
 */
export function projectQuota(input: QuotaProjectionInput): QuotaProjection {
  const cap = input.dayCap ? input.dayCap : null;
  const steady = input.safetyNet ?? input.polling;
  const share = cap ? steady.total / cap : null;
  let dayVerdict = share === null ? 'fits' : verdictOf(share);
  const pollingExceeds = cap !== null && input.safetyNet !== undefined && input.polling.total > cap;
  if (pollingExceeds && dayVerdict === 'fits') dayVerdict = 'tight';
  const month = input.month ? monthProjection(input.month, input.now) : null;
  const verdict = worst(dayVerdict, month?.verdict ?? 'fits');
  const projection: Omit<QuotaProjection, 'message'> = {
    perDay: { polling: input.polling, safetyNet: input.safetyNet ?? null },
    day: { cap, share, verdict: dayVerdict },
    month,
    verdict,
  };
  return { ...projection, message: messageOf(projection, pollingExceeds) };
}

function monthProjection(m: NonNullable<QuotaProjectionInput['month']>, now: number): QuotaProjection['month'] {
  const { days, daysLeft } = monthOf(now);
  const perMonth = Math.ceil(m.appPerDay * days);
  const projected = Math.ceil(m.used + m.appPerDay * daysLeft);
  const share = Math.max(perMonth, projected) / m.budget;
  return { ...m, perMonth, projected, share, verdict: verdictOf(share) };
}

function messageOf(p: Omit<QuotaProjection, 'message'>, pollingExceeds: boolean): string {
  const parts: string[] = [];
  const steady = p.perDay.safetyNet ?? p.perDay.polling;
  const what = p.perDay.safetyNet ? 'safety-net pulls' : 'schedule';
  if (p.day.cap !== null && p.day.share !== null)
    parts.push(`${what} ~${steady.total} calls/day of ${p.day.cap} (${pct(p.day.share)})`);
  else parts.push(`${what} ~${steady.total} calls/day (no daily cap)`);
  if (pollingExceeds)
    parts.push(
      `polling fallback ~${p.perDay.polling.total}/day exceeds the cap: it fits only while webhooks are healthy`,
    );
  if (p.month)
    parts.push(
      `app ${p.month.app}: ${p.month.connections} connection(s) ~${p.month.perMonth} calls/month, this month ~${p.month.projected} of ${p.month.budget} (${pct(p.month.share)})`,
    );
  return parts.join('; ');
}

export interface FirstSyncEstimate {
  records: number;
  calls: number;
  /** Days at the daily cap (or at the minute limit without one), as the calls are paced; fractional. */
  days: number;
  limitedBy: 'day' | 'minute' | 'month';
}

/**
 * How long a first sync of `records` records costing `calls` takes at the connection's quota: a day per
 * day cap's worth of calls (Zoho: one detail per record, so 10,000 invoices on a Free plan's 1,000 a day
 * is ten days), the rest at the minute limit; past what an app-wide month budget leaves, the month's end.
 * The schedule's own calls come on top: with them a capped day holds fewer of the first sync's.
 */
export function estimateFirstSync(input: {
  records: number;
  calls: number;
  dayCap?: number;
  perMinute: number;
  month?: { budget: number; used: number; now: number };
}): FirstSyncEstimate {
  // Each full day's cap is spent at the minute pace, then the rolling day holds the rest back a day.
  const fullDays = input.dayCap ? Math.floor(Math.max(0, input.calls - 1) / input.dayCap) : 0;
  const rest = input.calls - fullDays * (input.dayCap ?? 0);
  let days = fullDays + rest / input.perMinute / 1440;
  let limitedBy: FirstSyncEstimate['limitedBy'] = fullDays > 0 ? 'day' : 'minute';
  if (input.month) {
    const left = input.month.budget - input.month.used;
    // Beyond what this month leaves, the rest waits for the next month.
    if (input.calls > left) {
      days = Math.max(days, monthOf(input.month.now).daysLeft);
      limitedBy = 'month';
    }
  }
  return { records: input.records, calls: input.calls, days, limitedBy };
}

/** "10.1 days", "3.2 hours", "12 minutes": a duration a person reads. */
export function formatDays(days: number): string {
  if (days >= 1) return `${days.toFixed(1)} days`;
  const hours = days * 24;
  if (hours >= 1) return `${hours.toFixed(1)} hours`;
  const minutes = Math.max(1, Math.ceil(hours * 60));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
