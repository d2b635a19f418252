import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import type { ConnectionCheck } from '../../operations/check-connection.js';
import type { collectConnections } from '../../operations/list-connections.js';
import { type BillingEmulator, startBillingEmulator } from '../../sandbox/billing/billing-emulator.js';
import {
  QBO_SANDBOX_DEFAULTS,
  type RunningQuickBooksEmulator,
  startQuickBooksEmulator,
} from '../../sandbox/quickbooks/index.js';
import {
  INDIA_TENANT_ID,
  startXeroEmulator,
  XERO_SANDBOX_DEFAULTS,
  type XeroEmulator,
} from '../../sandbox/xero/index.js';
import { collector } from '../../app/service.js';
import { createRuntime } from '../../app/create-runtime.js';
import { loadAppConfig } from '../../cli/context.js';
import { createLogger } from '../../src/observability/logger.js';
import { monthOf } from '../../src/pipeline/quota-projection.js';
import { calendarMonth } from '../../src/pipeline/quotas.js';
import { type CliRun, runCli } from '../support/cli.js';
import { CONNECTION, type Harness, startHarness } from '../support/harness.js';
import { connect as connectRedis, dropPrefix, TEST_REDIS_URL } from '../support/redis.js';

type Report = { ok: boolean; connections: ConnectionCheck[] };
type View = Awaited<ReturnType<typeof collectConnections>>;

const checkOf = (r: Report, id: string, check: string) =>
  r.connections.find((c) => c.id === id)!.checks.find((c) => c.check === check)!;
const json = <T>(r: CliRun): T => {
  expect(r.err).not.toMatch(/Error/);
  return JSON.parse(r.out) as T;
};

/**
 * `erp-sync check` and `erp-sync connections --json` project each connection's calls a day at its
 * schedule against what its vendor bills (Zoho's plan, Xero's tier, QuickBooks' app month shared by
 * every connection of one client id), estimate a first sync from the source's record count, and the
 * QuickBooks month is enforced: past it the connections park until the month ends. Against the
 * sandboxes over loopback.
 */
describe('quotas as the vendors bill them: QuickBooks and Xero', () => {
  const BILLING_KEY = `quota-key-${randomBytes(4).toString('hex')}`;
  let billing: BillingEmulator;
  let qbo: RunningQuickBooksEmulator;
  let xero: XeroEmulator;
  let dir: string;
  const redis = connectRedis();
  const prefix = `test-quota-projection-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    billing = await startBillingEmulator({ port: 0, keys: [{ key: BILLING_KEY, companyId: 'quota' }] });
    qbo = await startQuickBooksEmulator({ port: 0, seed: 9, records: 5, customers: 5, creditMemos: 0 });
    xero = await startXeroEmulator({ port: 0, seed: 9, records: 5, contacts: 5, creditNotes: 0 });
    dir = await mkdtemp(join(tmpdir(), 'quota-projection-'));
  });
  afterAll(async () => {
    await qbo?.close();
    await xero?.close();
    await billing?.close();
    await dropPrefix(redis, prefix);
    await redis.quit();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Two QuickBooks realms of one app (same clientId) and a Xero organisation on the Starter tier, at the default 300 s. */
  const config = async (app: { name: string; budget: number }): Promise<string> => {
    const file = join(dir, `${randomBytes(3).toString('hex')}.yaml`);
    const q = QBO_SANDBOX_DEFAULTS;
    const x = XERO_SANDBOX_DEFAULTS;
    const rateBudget = { perMinute: 1_000_000, concurrency: 4 };
    const qboConnection = (id: string) => ({
      id,
      system: 'quickbooks',
      originSource: 'EXTERNAL_SYSTEM_A',
      entities: ['customers', 'invoices'],
      rateBudget,
      settings: {
        realmId: qbo.realmId,
        clientId: q.clientId,
        clientSecret: q.clientSecret,
        refreshToken: q.refreshToken,
        baseUrl: qbo.url,
        tokenUrl: `${qbo.url}/oauth2/v1/tokens/bearer`,
        throttleWaitMs: 0,
        appName: app.name,
        appMonthlyReadBudget: app.budget,
      },
    });
    await writeFile(
      file,
      toYaml({
        billing: { url: billing.url, apiKey: BILLING_KEY, baseCurrency: 'INR' },
        redis: { url: TEST_REDIS_URL, prefix },
        connections: [
          qboConnection('qbo-a'),
          qboConnection('qbo-b'),
          {
            id: 'xero-s',
            system: 'xero',
            originSource: 'EXTERNAL_SYSTEM_B',
            rateBudget,
            settings: {
              tenantId: INDIA_TENANT_ID,
              clientId: x.clientId,
              clientSecret: x.clientSecret,
              refreshToken: x.refreshToken,
              baseUrl: `${xero.url}/api.xro/2.0`,
            },
          },
        ],
      }),
    );
    return file;
  };
  const cli = (args: string[], file: string) => runCli([...args, '--config', file], { timeoutMs: 30_000 });

  it("given two realms of one app whose month cannot hold them and a Xero Starter organisation at 300 s, when checked, then QuickBooks' schedule fails on the app's month, Xero's warns it is tight, each first sync is estimated from the source's count, and it exits 1", async () => {
    const file = await config({ name: 'shared-app', budget: 50_000 });
    // One realm's grant is checked (the two share the sandbox's rotating refresh token; a real app has one per realm).
    const r = await cli(['check', '--json', '--connection', 'qbo-a'], file);
    expect(r.code, r.err).toBe(1);
    const report = json<Report>(r);
    const days = monthOf(Date.now()).days;
    // customers + invoices: a query, and a CDC call and a query, each run: 3 × 288 + 4 lookups × 24 = 960 a day.
    const schedule = checkOf(report, 'qbo-a', 'schedule');
    expect(schedule.status).toBe('failed');
    expect(schedule.detail).toContain(
      `cannot fit: schedule ~960 calls/day (no daily cap); app shared-app: 2 connection(s) ~${2 * 960 * days} calls/month`,
    );
    expect(schedule.fix).toMatch(/settings\.appMonthlyReadBudget/);
    // 5 customers and 5 invoices: a query page each, the invoices' related reads and CDC: 5 calls.
    expect(checkOf(report, 'qbo-a', 'first sync')).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(
        /^10 record\(s\) \(customers 5, invoices 5\): ~5 calls, about 1 minute at the minute limit \(counting cost 2 call\(s\)\)$/,
      ),
    });

    const x = json<Report>(await cli(['check', '--json', '--connection', 'xero-s'], file));
    // Three streams: 3 lists × 288 + 2 lookups × 24 = 912 of Starter's 1,000 a day.
    expect(checkOf(x, 'xero-s', 'schedule')).toMatchObject({
      status: 'ok',
      detail: 'warning, tight: schedule ~912 calls/day of 1000 (91%)',
    });
    expect(checkOf(x, 'xero-s', 'first sync').detail).toMatch(/invoices 5, credit-notes 0\): ~3 calls/);
    expect(x.ok).toBe(true);

    const v = json<View>(await cli(['connections', '--json'], file));
    const used = Number(await redis.get(`${prefix}:app-month-calls:shared-app:${calendarMonth(Date.now()).month}`));
    expect(used, 'the check counted its QuickBooks calls against the app month').toBeGreaterThan(0);
    for (const id of ['qbo-a', 'qbo-b'])
      expect(v.connections.find((c) => c.id === id)!.quota.projection).toMatchObject({
        perDay: { polling: { lists: 864, lookups: 96, total: 960 }, safetyNet: null },
        day: { cap: null, verdict: 'fits' },
        month: {
          app: 'shared-app',
          budget: 50_000,
          used,
          connections: 2,
          perMonth: 2 * 960 * days,
          verdict: 'exceeds',
        },
        verdict: 'exceeds',
      });
    expect(v.connections.find((c) => c.id === 'xero-s')!.quota.projection).toMatchObject({
      perDay: { polling: { lists: 864, lookups: 48, total: 912 } },
      day: { cap: 1000, verdict: 'tight' },
      month: null,
      verdict: 'tight',
    });
    expect(JSON.stringify(v)).not.toContain(QBO_SANDBOX_DEFAULTS.clientId);
  }, 60_000);

  it('given an app whose month is spent, when checked, then its reads are refused before they are sent and the connection is parked until the month ends, not failed call by call', async () => {
    const file = await config({ name: 'tiny-app', budget: 3 });
    const r = await cli(['check', '--json', '--connection', 'qbo-a'], file);
    expect(r.code, r.err).toBe(1);
    const report = json<Report>(r);
    const { month, endsAt } = calendarMonth(Date.now());
    const failed = report.connections[0]!.checks.filter((c) => c.status === 'failed');
    expect(failed.map((c) => c.detail).join('\n')).toContain(`app tiny-app spent its 3 calls of ${month}`);
    expect(Number(await redis.get(`${prefix}:app-month-calls:tiny-app:${month}`))).toBe(3);

    const v = json<View>(await cli(['connections', '--json'], file));
    const a = v.connections.find((c) => c.id === 'qbo-a')!;
    expect(a.state).toBe('parked');
    expect(Math.abs(Date.parse(a.parkedUntil!) - endsAt)).toBeLessThan(1000);
    expect(a.quota.projection).toMatchObject({ month: { used: 3, budget: 3, verdict: 'exceeds' } });

    // The worker's gauges: the app's month by its configured name, no connection, never the client id.
    const rt = await createRuntime(
      await loadAppConfig(file),
      TEST_REDIS_URL,
      createLogger({ level: 'silent', format: 'json' }),
    );
    try {
      await collector(rt)();
      const month = (await rt.metrics.vendorQuotaUsed.get()).values.filter((x) => x.labels.window === 'month');
      expect(month.map((x) => [x.labels, x.value])).toEqual([[{ app: 'tiny-app', window: 'month' }, 3]]);
    } finally {
      await rt.close();
    }
  }, 60_000);
});

describe('quotas as the vendors bill them: Zoho Books plans', () => {
  let p: Harness;
  let dir: string;
  /** The suite's connection as a person configures it: a plan, three streams every 300 s, hourly lookups. */
  const variant = async (settings: Record<string, unknown>): Promise<string> => {
    const raw = structuredClone(p.rawConfig) as any;
    const c = raw.connections[0];
    c.entities = ['customers', 'invoices', 'credit-notes'];
    c.schedule = { everySeconds: 300 };
    delete c.settings.dailyCallLimit;
    Object.assign(c.settings, { lookupsCacheSeconds: 3600 }, settings);
    const file = join(dir, `${randomBytes(3).toString('hex')}.yaml`);
    await writeFile(file, toYaml(raw));
    return file;
  };
  const cli = (args: string[], file: string) => runCli([...args, '--config', file], { env: p.secretEnv });

  beforeAll(async () => {
    p = await startHarness({ name: 'quota-projection', invoices: 60 });
    dir = await mkdtemp(join(tmpdir(), 'quota-projection-zoho-'));
  });
  afterAll(async () => {
    await p?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('given a Free-plan organisation polled every 300 s, when checked, then the schedule cannot fit its 1,000 calls a day and the first sync is estimated from the count, and `connections --json` says the same', async () => {
    const file = await variant({ plan: 'free' });
    const r = await cli(['check', '--json'], file);
    expect(r.code, r.err).toBe(1);
    const report = json<Report>(r);
    const schedule = checkOf(report, CONNECTION, 'schedule');
    expect(schedule.status).toBe('failed');
    // 3 lists × 288 runs, plus the lookups counted from the organisation's own 6 tax groups: 8 calls × 24.
    expect(schedule.detail).toBe('cannot fit: schedule ~1056 calls/day of 1000 (106%)');
    expect(schedule.fix).toMatch(/settings\.plan/);
    const first = checkOf(report, CONNECTION, 'first sync');
    const [, records, invoices, calls] =
      /^(\d+) record\(s\) \(customers \d+, invoices (\d+), credit-notes \d+\): ~(\d+) calls, about /.exec(
        first.detail,
      ) ?? [];
    expect(Number(invoices)).toBe(60);
    // A detail per record and a list page per stream (each fits one page of 200).
    expect(Number(calls)).toBe(Number(records) + 3);

    const v = json<View>(await cli(['connections', '--json'], file));
    expect(v.connections[0]!.quota.projection).toMatchObject({
      // Not read here: six tax groups assumed, 8 calls an hour.
      perDay: { polling: { lists: 864, lookups: 192, total: 1056 }, safetyNet: null },
      day: { cap: 1000, verdict: 'exceeds' },
      month: null,
      verdict: 'exceeds',
    });
    const text = await cli(['connections'], file);
    expect(text.out).toContain('  projected    EXCEEDS: schedule ~1056 calls/day of 1000 (106%)\n');
  }, 60_000);

  it('given the same schedule on the Standard plan, or a daily limit smaller than the first sync, then the schedule fits, and the first sync says how many days', async () => {
    const standard = json<Report>(await cli(['check', '--json'], await variant({ plan: 'standard' })));
    expect(checkOf(standard, CONNECTION, 'schedule')).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/^fits: schedule ~\d+ calls\/day of 2000 \(\d+%\)$/),
    });
    // An explicit limit wins over the plan: at 40 calls a day the first sync's 60-odd details take a day more.
    const small = json<Report>(await cli(['check', '--json'], await variant({ plan: 'premium', dailyCallLimit: 40 })));
    expect(checkOf(small, CONNECTION, 'first sync').detail).toMatch(
      /^warning, slow: \d+ record\(s\) \(customers \d+, invoices 60, credit-notes \d+\): ~\d+ calls, about 1\.\d days at the daily cap/,
    );
  }, 60_000);
});
