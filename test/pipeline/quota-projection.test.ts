import { describe, expect, it } from 'vitest';
import type { EntityName } from '../../src/connector/entities.js';
import type { QuotaProfile } from '../../src/connector/quota-profile.js';
import { quotaProfile as qbo } from '../../connectors/quickbooks/quota-profile.js';
import { quotaProfile as xero } from '../../connectors/xero/quota-profile.js';
import { quotaProfile as zoho } from '../../connectors/zoho-books/quota-profile.js';
import { TIER_DAILY_CALLS } from '../../connectors/xero/settings.js';
import { PLAN_DAILY_CALLS } from '../../connectors/zoho-books/settings.js';
import {
  callsPerDay,
  estimateFirstSync,
  formatDays,
  projectQuota,
  type QuotaVerdict,
} from '../../src/pipeline/quota-projection.js';

const ALL: EntityName[] = ['customers', 'invoices', 'credit-notes'];
/** 15 November 2026, 00:00 UTC: a 30-day month with 16 days left. */
const NOW = Date.UTC(2026, 10, 15);
const HOUR = 3600;

/** A connection's calls a day with a connector's own costs (operations/project-calls.ts does the same). */
const perDay = (p: QuotaProfile<any>, everySeconds: number, lookups?: unknown, entities = ALL) =>
  callsPerDay({
    listCallsPerRun: entities.reduce((n, e) => n + p.listCallsPerRun(e), 0),
    everySeconds,
    lookupCalls: p.lookupCalls(lookups),
    lookupsCacheSeconds: HOUR,
  });

describe('quota projection: calls a day at a schedule', () => {
  it.each([
    // vendor, every (s), lists, lookups, total
    ['zoho-books, 3 streams, 6 tax groups (assumed)', zoho, 300, 864, 192, 1056],
    ['zoho-books at the safety net (6 h)', zoho, 21_600, 12, 32, 44],
    ['xero, 3 streams', xero, 300, 864, 48, 912],
    ['xero every minute', xero, 60, 4320, 48, 4368],
    ['quickbooks, 3 streams (CDC + query per document stream)', qbo, 300, 1440, 96, 1536],
  ] as const)(
    'given %s polled every %i s with hourly lookups, then lists %i + lookups %i = %i calls a day',
    (_name, profile, every, lists, lookups, total) => {
      expect(perDay(profile, every)).toEqual({ lists, lookups, total });
    },
  );

  it("given Zoho's lookups as read, when they hold 2 tax groups, then a refresh costs 4 calls (organisation, taxes, one per group)", () => {
    const taxes = {
      a: { isGroup: true },
      b: { isGroup: true },
      c: { isGroup: false },
    };
    expect(zoho.lookupCalls({ taxes })).toBe(4);
    expect(zoho.lookupCalls(undefined)).toBe(8);
  });

  it('given lookups cached longer than the schedule runs, then they are refreshed at most once a run', () => {
    expect(callsPerDay({ listCallsPerRun: 1, everySeconds: 21_600, lookupCalls: 2, lookupsCacheSeconds: 0 })).toEqual({
      lists: 4,
      lookups: 8,
      total: 12,
    });
  });
});

describe('quota projection: the schedule against the day cap and the app month', () => {
  const zohoFree = perDay(zoho, 300);
  const zohoNet = perDay(zoho, 21_600);
  const xero300 = perDay(xero, 300);
  const qboRealm = perDay(qbo, 300);
  it.each<[string, Parameters<typeof projectQuota>[0], QuotaVerdict, RegExp]>([
    [
      'Zoho Free at 300 s: 1,056 of 1,000',
      { polling: zohoFree, dayCap: PLAN_DAILY_CALLS.free, now: NOW },
      'exceeds',
      /schedule ~1056 calls\/day of 1000 \(106%\)/,
    ],
    [
      'Zoho Standard at 300 s',
      { polling: zohoFree, dayCap: PLAN_DAILY_CALLS.standard, now: NOW },
      'fits',
      /~1056 calls\/day of 2000 \(53%\)/,
    ],
    [
      'Zoho Free with webhooks: the safety net fits, the polling fallback does not',
      { polling: zohoFree, safetyNet: zohoNet, dayCap: PLAN_DAILY_CALLS.free, now: NOW },
      'tight',
      /safety-net pulls ~44 calls\/day of 1000 \(4%\); polling fallback ~1056\/day exceeds the cap/,
    ],
    [
      'Xero Starter at 300 s: 912 of 1,000',
      { polling: xero300, dayCap: TIER_DAILY_CALLS.starter, now: NOW },
      'tight',
      /~912 calls\/day of 1000 \(91%\)/,
    ],
    ['Xero Core at 300 s', { polling: xero300, dayCap: TIER_DAILY_CALLS.core, now: NOW }, 'fits', /of 5000 \(18%\)/],
    ['no daily cap (a sandbox)', { polling: xero300, dayCap: 0, now: NOW }, 'fits', /~912 calls\/day \(no daily cap\)/],
    [
      'one QuickBooks realm on the Builder budget',
      {
        polling: qboRealm,
        now: NOW,
        month: { app: 'qbo-1', budget: 500_000, used: 0, connections: 1, appPerDay: qboRealm.total },
      },
      'fits',
      /app qbo-1: 1 connection\(s\) ~46080 calls\/month, this month ~24576 of 500000 \(9%\)/,
    ],
    [
      'nine realms of one app',
      {
        polling: qboRealm,
        now: NOW,
        month: { app: 'qbo-1', budget: 500_000, used: 0, connections: 9, appPerDay: 9 * qboRealm.total },
      },
      'tight',
      /9 connection\(s\) ~414720 calls\/month/,
    ],
    [
      'eleven realms of one app',
      {
        polling: qboRealm,
        now: NOW,
        month: { app: 'qbo-1', budget: 500_000, used: 0, connections: 11, appPerDay: 11 * qboRealm.total },
      },
      'exceeds',
      /11 connection\(s\) ~506880 calls\/month/,
    ],
    [
      'one realm when the month is already nearly spent',
      {
        polling: qboRealm,
        now: NOW,
        month: { app: 'qbo-1', budget: 500_000, used: 490_000, connections: 1, appPerDay: qboRealm.total },
      },
      'exceeds',
      /this month ~514576 of 500000 \(103%\)/,
    ],
  ])('given %s, then the verdict is %s', (_name, input, verdict, message) => {
    const p = projectQuota(input);
    expect(p.verdict).toBe(verdict);
    expect(p.message).toMatch(message);
  });
});

describe('quota projection: a first sync at the quota', () => {
  const zohoSettings = { pageSize: 200 } as never;
  const qboSettings = { pageSize: 1000 } as never;
  it.each<[string, Parameters<typeof estimateFirstSync>[0], number, 'day' | 'minute' | 'month', string]>([
    [
      '10,000 Zoho invoices on the Free plan (a detail per record)',
      { records: 10_000, calls: zoho.firstSyncCalls('invoices', 10_000, zohoSettings), dayCap: 1000, perMinute: 90 },
      10_100,
      'day',
      '10.0 days',
    ],
    [
      '10,000 Zoho invoices on Premium',
      { records: 10_000, calls: zoho.firstSyncCalls('invoices', 10_000, zohoSettings), dayCap: 10_000, perMinute: 90 },
      10_100,
      'day',
      '1.0 days',
    ],
    [
      '10,000 QuickBooks invoices (a query per 1,000, its customers and credit memos by id)',
      { records: 10_000, calls: qbo.firstSyncCalls('invoices', 10_000, qboSettings), perMinute: 450 },
      31,
      'minute',
      '1 minute',
    ],
    [
      '10,000 QuickBooks invoices when the app month has 10 calls left',
      {
        records: 10_000,
        calls: qbo.firstSyncCalls('invoices', 10_000, qboSettings),
        perMinute: 450,
        month: { budget: 500_000, used: 499_990, now: NOW },
      },
      31,
      'month',
      '16.0 days',
    ],
    [
      '2,500 Xero invoices at 100 a page on Starter',
      {
        records: 2500,
        calls: xero.firstSyncCalls('invoices', 2500, { pageSize: 100 } as never),
        dayCap: 1000,
        perMinute: 55,
      },
      25,
      'minute',
      '1 minute',
    ],
  ])('given %s, then it costs %i calls, paced by the %s', (_name, input, calls, limitedBy, duration) => {
    const e = estimateFirstSync(input);
    expect(e.calls).toBe(calls);
    expect(e.limitedBy).toBe(limitedBy);
    expect(formatDays(e.days)).toBe(duration);
  });
});
