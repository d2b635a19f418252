import { describe, expect, it } from 'vitest';
import { calendarMonth, decideAppMonthSpent } from '../../src/waits/app-month-waits.js';

describe("an app's month spent (decideAppMonthSpent)", () => {
  it.each([
    ['mid-November', Date.UTC(2026, 10, 27, 18, 0, 0), Date.UTC(2026, 11, 1), '2026-11'],
    ['the last millisecond of December', Date.UTC(2027, 0, 1) - 1, Date.UTC(2027, 0, 1), '2026-12'],
    ['the first instant of March', Date.UTC(2027, 2, 1), Date.UTC(2027, 3, 1), '2027-03'],
  ])(
    'given the budget spent at %s, when the next call is counted, then the connection parks until the UTC month turns',
    (_, now, endsAt, month) => {
      expect(decideAppMonthSpent('qbo-app', 500_000, now)).toEqual({
        kind: 'park',
        untilMs: endsAt,
        why: `app qbo-app spent its 500000 calls of ${month}; the vendor would block every company of the app until the month ends`,
      });
    },
  );

  it('given 00:30 on 1 November in Asia/Kolkata (19:00 UTC on 31 October), when the month is read, then it is October UTC, not the host zone', () => {
    const now = Date.UTC(2026, 9, 31, 19, 0, 0);
    expect(calendarMonth(now)).toEqual({ month: '2026-10', endsAt: Date.UTC(2026, 10, 1) });
  });
});
