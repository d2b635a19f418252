import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { headingAnchor } from '../../src/observability/runbook-page.js';
import { exportedSeries, metricNamesIn, PROMETHEUS_SERIES } from './support/metric-names.js';
import { REPO_ROOT } from '../support/repo-paths.js';
import { requireBinary } from './support/require-binary.js';
import { run, runAsync } from './support/run-command.js';

const RULES = 'ops/prometheus/rules/erp-sync.rules.yml';
const TESTS = 'ops/prometheus/tests/erp-sync.rules.test.yml';
const CONFIG = 'ops/prometheus/prometheus.yml';

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface RuleTest {
  name: string;
  alert_rule_test?: Array<{ eval_time: string; alertname: string; exp_alerts: unknown[] }>;
}

const rulesDoc = () =>
  parseYaml(readFileSync(join(REPO_ROOT, RULES), 'utf8')) as { groups: Array<{ name: string; rules: Rule[] }> };
const allRules = () => rulesDoc().groups.flatMap((g) => g.rules);
const alerts = () => allRules().filter((r) => r.alert);

describe('the alert rules in ops/prometheus', () => {
  let promtool: string;
  beforeAll(() => {
    promtool = requireBinary('promtool', 'prometheus');
  });

  it('pass `promtool check rules`', () => {
    const r = run(promtool, ['check', 'rules', RULES]);
    expect(r.status, r.output).toBe(0);
    expect(r.output).toMatch(/SUCCESS: 21 rules found/);
  });

  it('pass `promtool check config` on the scrape config, which loads them through its rule_files glob', () => {
    const r = run(promtool, ['check', 'config', CONFIG]);
    expect(r.status, r.output).toBe(0);
    expect(r.output).toContain('erp-sync.rules.yml');
  });

  it('pass their unit tests: `promtool test rules`', () => {
    const r = run(promtool, ['test', 'rules', TESTS]);
    expect(r.status, r.output).toBe(0);
    expect(r.output).toContain('SUCCESS');
  });

  it('cover what an operator asked for: staleness, backlog, failures, quarantine, drift, worker down, Redis, vendor quota, outages, refused credentials, records recovered', () => {
    expect(
      alerts()
        .map((a) => a.alert)
        .sort(),
    ).toEqual(
      [
        'ErpSyncPullStale',
        'ErpSyncPullNeverSucceeded',
        'ErpSyncUpsertBacklogGrowing',
        'ErpSyncQueueHasNoWorkers',
        'ErpSyncJobFailureRateHigh',
        'ErpSyncQuarantineRateHigh',
        'ErpSyncQuarantineGrowing',
        'ErpSyncDriftFound',
        'ErpSyncWorkerDown',
        'ErpSyncNoWorkerUp',
        'ErpSyncRedisEvictionPolicyUnsafe',
        'ErpSyncRedisMemoryHigh',
        'ErpSyncRedisMemoryCritical',
        'ErpSyncVendorDailyQuotaLow',
        'ErpSyncBillingDown',
        'ErpSyncVendorDown',
        'ErpSyncCredentialsRefused',
        'ErpSyncRecordsRecovered',
        'ErpSyncRedisMaxmemoryUnset',
        'ErpSyncRateLimitStorm',
      ].sort(),
    );
  });

  it('each have a severity (critical or warning), a summary, a description and an absolute runbook_url to its entry in docs/operations.md', () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs/operations.md'), 'utf8');
    const anchors = new Set([...doc.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => headingAnchor(m[1]!)));
    for (const a of alerts()) {
      expect(['critical', 'warning'], a.alert).toContain(a.labels?.severity);
      expect(a.annotations?.summary, a.alert).toBeTruthy();
      expect(a.annotations?.description, a.alert).toBeTruthy();
      // The worker's /runbook page, at the base the external label names (else the Compose stack's worker).
      expect(a.annotations?.runbook_url, a.alert).toBe(
        `{{ with $externalLabels.erpsync_runbook_url }}{{ . }}{{ else }}http://localhost:9464/runbook{{ end }}#${a.alert!.toLowerCase()}`,
      );
      expect(a.annotations?.runbook, a.alert).toBeUndefined();
      expect(anchors.has(a.alert!.toLowerCase()), `docs/operations.md has no heading "${a.alert}"`).toBe(true);
    }
  });

  it('read only metrics the worker exports (or `up`, or a recording rule of the same file)', async () => {
    const { all } = await exportedSeries();
    const records = new Set(allRules().flatMap((r) => (r.record ? [r.record] : [])));
    const unknown: string[] = [];
    for (const r of allRules()) {
      for (const name of metricNamesIn(r.expr))
        if (!all.has(name) && !PROMETHEUS_SERIES.has(name) && !records.has(name))
          unknown.push(`${r.alert ?? r.record}: ${name}`);
    }
    expect(unknown).toEqual([]);
    // the parser really finds names (guards against it silently returning nothing)
    expect(metricNamesIn(allRules().find((r) => r.alert === 'ErpSyncPullStale')!.expr).sort()).toEqual([
      'erpsync_last_success_timestamp_seconds',
      'erpsync_pull_interval_seconds',
    ]);
  });

  describe('have tests that would notice a broken rule', () => {
    const tests = () => (parseYaml(readFileSync(join(REPO_ROOT, TESTS), 'utf8')) as { tests: RuleTest[] }).tests;
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'erp-sync-rules-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    /**
     * Runs the shipped tests against the rules with one alert's expression replaced (each mutant in its
     * own directory, several at once); returns the alerts whose mutant the tests did NOT catch.
     */
    const survivors = async (expr: string) => {
      const names = alerts().map((a) => a.alert!);
      const caught = await Promise.all(
        names.map(async (alert, i) => {
          const d = join(dir, `${expr.length}-${i}`);
          mkdirSync(join(d, 'rules'), { recursive: true });
          mkdirSync(join(d, 'tests'), { recursive: true });
          // only the shipped test groups that check this alert (faster; the verdict is the same)
          const doc0 = parseYaml(readFileSync(join(REPO_ROOT, TESTS), 'utf8')) as { tests: RuleTest[] };
          doc0.tests = doc0.tests.filter((t) => (t.alert_rule_test ?? []).some((c) => c.alertname === alert));
          writeFileSync(join(d, 'tests', 't.yml'), toYaml(doc0));
          const doc = rulesDoc();
          for (const g of doc.groups) for (const r of g.rules) if (r.alert === alert) r.expr = expr;
          writeFileSync(join(d, 'rules', 'erp-sync.rules.yml'), toYaml(doc));
          const r = await runAsync(promtool, ['test', 'rules', join(d, 'tests', 't.yml')]);
          return r.status !== 0;
        }),
      );
      return names.filter((_, i) => !caught[i]);
    };

    it('each alert has a case where it must fire and a case where it must stay quiet', () => {
      for (const a of alerts()) {
        const cases = tests()
          .flatMap((t) => t.alert_rule_test ?? [])
          .filter((c) => c.alertname === a.alert);
        expect(
          cases.some((c) => c.exp_alerts.length > 0),
          `${a.alert} has no firing case`,
        ).toBe(true);
        expect(
          cases.some((c) => c.exp_alerts.length === 0),
          `${a.alert} has no quiet case`,
        ).toBe(true);
      }
    });

    it('the tests fail when any one alert can never fire', async () => {
      expect(await survivors('vector(1) == 0')).toEqual([]);
    }, 120_000);

    it('the tests fail when any one alert always fires', async () => {
      expect(await survivors('vector(1)')).toEqual([]);
    }, 120_000);
  });
});
