import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  CHANGE_TO_BILLING_SLOW_ALERT,
  CHANGE_TO_BILLING_SLOW_P99_SECONDS,
} from '../../src/observability/change-to-billing-slow.js';
import { REPO_ROOT } from '../support/repo-paths.js';

interface Rule {
  alert?: string;
  expr: string;
}

describe('the freshness threshold: one number for the alert, the console and the CLI', () => {
  it('given the rule ErpSyncChangeToBillingSlow, then its p99 threshold is CHANGE_TO_BILLING_SLOW_P99_SECONDS', () => {
    const doc = parseYaml(readFileSync(join(REPO_ROOT, 'ops/prometheus/rules/webhooks.rules.yml'), 'utf8')) as {
      groups: Array<{ rules: Rule[] }>;
    };
    const rule = doc.groups.flatMap((g) => g.rules).find((r) => r.alert === CHANGE_TO_BILLING_SLOW_ALERT);
    expect(rule, `${CHANGE_TO_BILLING_SLOW_ALERT} in webhooks.rules.yml`).toBeDefined();
    const threshold = /histogram_quantile\(0\.99,[^\n]*\)\s*>\s*([0-9.]+)/.exec(rule!.expr)?.[1];
    expect(Number(threshold)).toBe(CHANGE_TO_BILLING_SLOW_P99_SECONDS);
  });
});
