/**
 * What a spent app month means, decided here alone (src/pipeline/quotas.ts counts the calls and acts on the answer).
 * QuickBooks Online allows an app (one client id) a number of read calls per calendar month, shared by every
 * company connected through it (`QuotaLimits.month`); past it the vendor would block every company of the app.
 *
 * | signal                                                  | decision                                                   |
 * |---------------------------------------------------------|------------------------------------------------------------|
 * | the call just granted would pass the app's month budget | give the slot back; park the connection until the UTC month ends |
 *
 * The park is the connection's park key (as on a spent day): every job of the connection waits for it,
 * delayed without using an attempt (jobs/define-job.ts).
 */
export type AppMonthWait = { kind: 'park'; untilMs: number; why: string };

/** `2026-11`: the UTC calendar month of an instant, and when it ends. */
export function calendarMonth(now: number): { month: string; endsAt: number } {
  const d = new Date(now);
  return {
    month: d.toISOString().slice(0, 7),
    endsAt: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1),
  };
}

export function decideAppMonthSpent(app: string, budget: number, now: number): AppMonthWait {
  const { month, endsAt } = calendarMonth(now);
  return {
    kind: 'park',
    untilMs: endsAt,
    why: `app ${app} spent its ${budget} calls of ${month}; the vendor would block every company of the app until the month ends`,
  };
}
