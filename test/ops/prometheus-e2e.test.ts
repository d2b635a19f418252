import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoice } from '../support/billing.js';
import { startPrometheus } from './support/prometheus.js';
import { freePort } from '../../src/http/free-port.js';
import { COMPANY, CONNECTION, type Harness, REPO_ROOT, startHarness, until } from '../support/harness.js';
import { opsService } from './support/ops-service.js';

/**
 * A real Prometheus (the Debian binary) scrapes a real worker (startService, in this process) that syncs
 * the Zoho Books emulator into the billing emulator on loopback. Prometheus loads the SHIPPED rules file
 * unchanged (ops/prometheus/rules/erp-sync.rules.yml): alerts with a `for:` are observed in their
 * `pending` state (which they enter on the first true evaluation), ErpSyncDriftFound (no `for:`) fires.
 */
const RULES = join(REPO_ROOT, 'ops/prometheus/rules/erp-sync.rules.yml');
const DASHBOARD = join(REPO_ROOT, 'ops/grafana/dashboards/erp-sync.json');
const DOWN = 'zoho-down';

describe('Prometheus scraping a running worker, with the shipped alert rules', () => {
  let stack: Harness;
  let prom: Awaited<ReturnType<typeof startPrometheus>>;

  beforeAll(async () => {
    const closed = await freePort(); // nothing listens here: a connection whose ERP is unreachable
    stack = await startHarness(
      opsService('prom-e2e', {
        extraConnections: [
          {
            id: DOWN,
            system: 'zoho-books',
            originSource: 'EXTERNAL_SYSTEM_B',
            entities: ['invoices'],
            schedule: { everySeconds: 3600 },
            // A connection with a review (holding nothing: its vendor never answers) shows the held-records panel at 0.
            review: { rules: { creditNotes: true } },
            settings: {
              organizationId: '1',
              clientId: 'x',
              clientSecret: 'x',
              refreshToken: 'x',
              baseUrl: `http://127.0.0.1:${closed}/books/v3`,
            },
          },
        ],
      }),
    );
    const target = new URL(stack.url).host;
    // As an operator would set it: the runbook page of a worker they can open.
    prom = await startPrometheus({
      targets: [target],
      ruleFiles: [RULES],
      externalLabels: { erpsync_runbook_url: `${stack.url}/runbook` },
    });
  }, 60_000);

  afterAll(async () => {
    await prom?.close();
    await stack?.close();
  });

  it('scrapes the worker target and loads every shipped rule without error', async () => {
    const t = await until(
      'the erp-sync target to be up',
      async () => (await prom.targets()).activeTargets.find((x) => x.labels.job === 'erp-sync' && x.health === 'up'),
      20_000,
    );
    expect(t.scrapeUrl).toBe(`${stack.url}/metrics`);
    const rules = await prom.rules();
    expect(rules.length).toBe(21);
    expect(rules.filter((r) => r.health !== 'ok' && r.health !== 'unknown')).toEqual([]);
  });

  it('ingests the sync metrics once the worker has pulled and upserted: records, last success, schedule, queue depths', async () => {
    await stack.waitForPull('invoices', 40_000);
    const upserted = await until(
      'erpsync_records_upserted_total in Prometheus',
      async () => {
        const r = await prom.query(`sum(erpsync_records_upserted_total{connection="${CONNECTION}"})`);
        return Number(r.result[0]?.value[1] ?? 0) > 0 ? r : undefined;
      },
      30_000,
    );
    expect(Number(upserted.result[0]!.value[1])).toBeGreaterThan(0);
    const last = await prom.query(
      `erpsync_last_success_timestamp_seconds{connection="${CONNECTION}",entity="invoices"}`,
    );
    expect(Math.abs(Number(last.result[0]!.value[1]) - Date.now() / 1000)).toBeLessThan(120);
    const interval = await prom.query(`erpsync_pull_interval_seconds{connection="${CONNECTION}"}`);
    expect(interval.result.map((r) => [r.metric.entity, r.value[1]]).sort()).toEqual([
      ['customers', '5'],
      ['invoices', '5'],
    ]);
    const backlog = await until(
      'the backlog recording rule',
      async () => (await prom.query('queue:erpsync_backlog_jobs:sum{queue="upsert"}')).result[0],
    );
    expect(Number(backlog.value[1])).toBeGreaterThanOrEqual(0);
  }, 90_000);

  it('keeps ErpSyncPullStale and ErpSyncWorkerDown inactive while the worker syncs', async () => {
    expect((await prom.rule('ErpSyncPullStale')).state).toBe('inactive');
    expect((await prom.rule('ErpSyncWorkerDown')).state).toBe('inactive');
    expect((await prom.rule('ErpSyncNoWorkerUp')).state).toBe('inactive');
    expect((await prom.rule('ErpSyncRedisEvictionPolicyUnsafe')).state).toBe('inactive');
  });

  it('puts ErpSyncPullNeverSucceeded in pending for the connection whose ERP is unreachable, and only for it', async () => {
    const rule = await until(
      'ErpSyncPullNeverSucceeded pending',
      async () => {
        const r = await prom.rule('ErpSyncPullNeverSucceeded');
        return r.state === 'pending' ? r : undefined;
      },
      20_000,
    );
    expect(
      rule.alerts!.map((a) => ({ connection: a.labels.connection, entity: a.labels.entity, state: a.state })),
    ).toEqual([{ connection: DOWN, entity: 'invoices', state: 'pending' }]);
  });

  it('fires ErpSyncDriftFound after a reconcile finds an invoice in billing that the source does not have', async () => {
    expect((await prom.rule('ErpSyncDriftFound')).state).toBe('inactive');
    // A billing-side user creates an invoice with this connection's origin: an orphan for reconcile.
    const orphan = invoice(990001, { invoiceId: 'ops-orphan-1', erpId: undefined });
    const res = await fetch(`${stack.billing.url}/__admin/invoices?company=${COMPANY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ invoice: orphan }),
    });
    expect(res.status).toBe(200);
    await stack.service.rt.queues.reconcile.add('reconcile', { connectionId: CONNECTION, lastDays: 1 });
    const rule = await until(
      'ErpSyncDriftFound firing',
      async () => {
        const r = await prom.rule('ErpSyncDriftFound');
        return r.state === 'firing' ? r : undefined;
      },
      30_000,
    );
    // (the generated source also holds voided invoices the worker cannot void in billing: those are
    // reported too, as void_not_reflected, one alert per kind)
    expect(rule.alerts!.map((a) => ({ ...a.labels, value: Number(a.value) }))).toContainEqual({
      alertname: 'ErpSyncDriftFound',
      connection: CONNECTION,
      kind: 'orphan_in_billing',
      severity: 'warning',
      value: 1,
    });
    const alerts = await prom.query(
      'ALERTS{alertname="ErpSyncDriftFound", alertstate="firing", kind="orphan_in_billing"}',
    );
    expect(alerts.result).toHaveLength(1);
    // The alert links to its runbook entry, served by the worker: absolute, and the entry is there.
    const runbookUrl = rule.alerts!.find((a) => a.labels.kind === 'orphan_in_billing')!.annotations.runbook_url!;
    expect(runbookUrl).toBe(`${stack.url}/runbook#erpsyncdriftfound`);
    const page = await fetch(runbookUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<h3 id="erpsyncdriftfound">ErpSyncDriftFound</h3>');
  }, 60_000);

  it('evaluates every query of the Grafana dashboard without error, and every panel shows data', async () => {
    const dash = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
      panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
    };
    const panels = dash.panels.filter((p) => p.targets?.length);
    expect(panels.flatMap((p) => p.targets!).length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const panel of panels) {
      let series = 0;
      for (const t of panel.targets!) {
        const expr = t.expr.replaceAll('$connection', '.*');
        const r = await prom
          .query(expr)
          .catch((e: Error) => (failures.push(`${panel.title}: ${expr}: ${e.message}`), undefined));
        series += r?.result.length ?? 0;
      }
      // A panel whose every query is empty reads "No data": its series must exist (at 0) from the start.
      if (series === 0) failures.push(`no data: ${panel.title}`);
    }
    expect(failures).toEqual([]);
    // and the core panels have data from this worker
    for (const expr of [
      'sum(rate(erpsync_records_upserted_total[5m]))',
      'max by (queue, state) (erpsync_queue_jobs)',
      `max by (connection, kind) (erpsync_reconcile_drift_records)`,
    ]) {
      expect((await prom.query(expr)).result.length, expr).toBeGreaterThan(0);
    }
  });

  it('puts ErpSyncWorkerDown in pending once the worker stops answering', async () => {
    await stack.service.stop();
    const rule = await until(
      'ErpSyncWorkerDown pending',
      async () => {
        const r = await prom.rule('ErpSyncWorkerDown');
        return r.state === 'pending' ? r : undefined;
      },
      20_000,
    );
    expect(rule.alerts![0]!.labels).toMatchObject({
      job: 'erp-sync',
      instance: new URL(stack.url).host,
      severity: 'critical',
    });
  }, 30_000);
});
