import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { exportedSeries, metricNamesIn, PROMETHEUS_SERIES } from './support/metric-names.js';
import { REPO_ROOT } from '../support/repo-paths.js';

interface Target {
  expr: string;
  datasource?: { type: string; uid: string };
}
interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: Target[];
  gridPos: { x: number; y: number; w: number; h: number };
}
interface Dashboard {
  uid: string;
  title: string;
  panels: Panel[];
  templating: { list: Array<{ name: string; type: string; query: unknown; definition?: string }> };
  annotations: { list: Array<{ expr?: string }> };
}

const dashboard = () =>
  JSON.parse(readFileSync(join(REPO_ROOT, 'ops/grafana/dashboards/erp-sync.json'), 'utf8')) as Dashboard;
const queries = (d: Dashboard) =>
  d.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ where: `panel "${p.title}"`, expr: t.expr })));
const variableQueries = (d: Dashboard) =>
  d.templating.list
    .filter((v) => v.type === 'query')
    .map((v) => ({
      where: `variable $${v.name}`,
      expr: typeof v.query === 'string' ? v.query : (v.query as { query: string }).query,
    }));
const annotationQueries = (d: Dashboard) =>
  d.annotations.list.flatMap((a) => (a.expr ? [{ where: 'annotation', expr: a.expr }] : []));

describe('the Grafana dashboard ops/grafana/dashboards/erp-sync.json', () => {
  it('names, in every panel query, variable and annotation, only metrics the worker exports (or Prometheus writes: up, ALERTS)', async () => {
    const { all } = await exportedSeries();
    const d = dashboard();
    const unknown: string[] = [];
    const seen = new Set<string>();
    for (const q of [...queries(d), ...variableQueries(d), ...annotationQueries(d)]) {
      const names = metricNamesIn(q.expr);
      if (names.length === 0) unknown.push(`${q.where}: no metric in ${q.expr}`);
      for (const n of names) {
        seen.add(n);
        if (!all.has(n) && !PROMETHEUS_SERIES.has(n)) unknown.push(`${q.where}: ${n}`);
      }
    }
    expect(unknown).toEqual([]);
    expect(seen.size).toBeGreaterThan(15);
  });

  it('shows every domain metric the worker exports somewhere', async () => {
    const { domain } = await exportedSeries();
    const used = new Set(
      queries(dashboard())
        .flatMap((q) => metricNamesIn(q.expr))
        .map((n) => n.replace(/_(bucket|sum|count)$/, '')),
    );
    expect(domain.filter((m) => !used.has(m))).toEqual([]);
  });

  it('covers throughput, lag, backlog, errors by reason, drift and quotas', () => {
    const d = dashboard();
    const rows = d.panels.filter((p) => p.type === 'row').map((p) => p.title);
    expect(rows).toEqual([
      'Overview',
      'Throughput',
      'Lag and latency',
      'Backlog',
      'Errors',
      'Reconciliation',
      'Quotas and Redis',
      'Outages and records in flight',
    ]);
    const exprs = queries(d).map((q) => q.expr);
    const has = (re: RegExp) => exprs.some((e) => re.test(e));
    expect(has(/rate\(erpsync_records_upserted_total/)).toBe(true); // throughput
    expect(has(/erpsync_checkpoint_lag_seconds/)).toBe(true); // lag
    expect(has(/time\(\) - max by \(connection, entity\) \(erpsync_last_success_timestamp_seconds/)).toBe(true); // freshness
    expect(has(/erpsync_queue_jobs\{queue="upsert"/)).toBe(true); // backlog
    expect(has(/sum by \(reason\) \(increase\(erpsync_records_quarantined_total/)).toBe(true); // errors by reason
    expect(has(/erpsync_reconcile_drift_records/)).toBe(true); // drift
    expect(has(/erpsync_billing_up/) && has(/erpsync_in_flight_records/)).toBe(true); // outages, records in flight
    expect(has(/erpsync_vendor_quota_remaining/)).toBe(true); // quotas
  });

  it('reads every query from the datasource variable, which the provisioned Prometheus datasource satisfies', () => {
    const d = dashboard();
    const ds = d.templating.list.find((v) => v.name === 'datasource')!;
    expect(ds).toMatchObject({ type: 'datasource', query: 'prometheus' });
    for (const p of d.panels.filter((x) => x.type !== 'row')) {
      expect(p.datasource, p.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
      for (const t of p.targets ?? [])
        expect(t.datasource, p.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
    }
    const provisioned = parseYaml(
      readFileSync(join(REPO_ROOT, 'ops/grafana/provisioning/datasources/prometheus.yml'), 'utf8'),
    ) as {
      datasources: Array<{ type: string; url: string; isDefault: boolean }>;
    };
    expect(provisioned.datasources).toEqual([
      expect.objectContaining({ type: 'prometheus', url: 'http://prometheus:9090', isDefault: true }),
    ]);
  });

  it('is a well-formed dashboard: unique panel ids, a stable uid, every panel inside the 24-column grid', () => {
    const d = dashboard();
    expect(d.uid).toBe('erp-sync');
    const ids = d.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of d.panels) {
      expect(p.gridPos.x + p.gridPos.w, p.title).toBeLessThanOrEqual(24);
      expect(p.gridPos.w, p.title).toBeGreaterThan(0);
    }
    for (const p of d.panels.filter((x) => x.type !== 'row')) expect(p.targets?.length, p.title).toBeGreaterThan(0);
  });
});

describe('the metric-name parser the dashboard and rule tests rely on', () => {
  it('finds selectors and ignores functions, aggregations, label names, strings, ranges and variables', () => {
    expect(
      metricNamesIn(
        'histogram_quantile(0.95, sum by (le, queue) (rate(erpsync_job_duration_seconds_bucket{result="ok"}[5m])))',
      ),
    ).toEqual(['erpsync_job_duration_seconds_bucket']);
    expect(
      metricNamesIn('a_total / on (x) group_left b_total > 0.1 and c offset 1h unless d{k=~"e|f"}').sort(),
    ).toEqual(['a_total', 'b_total', 'c', 'd']);
    expect(metricNamesIn('label_values(erpsync_pull_interval_seconds, connection)')).toEqual([
      'erpsync_pull_interval_seconds',
    ]);
    expect(metricNamesIn('sum(rate(x{connection=~"$connection"}[$__rate_interval]))')).toEqual(['x']);
    expect(metricNamesIn('queue:erpsync_backlog_jobs:sum{queue="upsert"} > 1000')).toEqual([
      'queue:erpsync_backlog_jobs:sum',
    ]);
  });
});
