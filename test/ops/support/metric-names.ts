import { createMetrics } from '../../../src/observability/metrics.js';

/** Series Prometheus itself writes (not the worker): allowed in rules and dashboards. */
export const PROMETHEUS_SERIES = new Set(['up', 'ALERTS']);

/**
 * Every series name the worker's /metrics can expose, from the one registry it uses
 * (src/observability/metrics.ts): histograms as _bucket/_sum/_count, plus the base name.
 */
export async function exportedSeries(): Promise<{ all: Set<string>; domain: string[] }> {
  const { registry } = createMetrics();
  const all = new Set<string>();
  const domain: string[] = [];
  for (const m of await registry.getMetricsAsJSON()) {
    all.add(m.name);
    if (['histogram', 'summary'].includes(String(m.type)))
      for (const s of ['_bucket', '_sum', '_count']) all.add(`${m.name}${s}`);
    if (!/^(process|nodejs)_/.test(m.name)) domain.push(m.name);
  }
  return { all, domain };
}

const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'offset',
  'bool',
  'inf',
  'nan',
  'atan2',
]);

/**
 * The metric names a PromQL expression selects: identifiers outside label matchers, strings, ranges
 * and grouping clauses, that are not functions, aggregations or keywords. `label_values(m, label)`
 * (a Grafana variable query) yields `m`.
 */
export function metricNamesIn(expr: string): string[] {
  let e = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\$\{?\w+\}?/g, ' ')
    .replace(/label_values\(\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*,[^)]*\)/g, ' $1 ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  e = e.replace(/\b(\d+(ms|s|m|h|d|w|y))+\b/g, ' ').replace(/\b\d+(\.\d+)?(e[+-]?\d+)?\b/gi, ' ');
  const names = new Set<string>();
  const re = /[a-zA-Z_:][a-zA-Z0-9_:]*/g;
  for (let m = re.exec(e); m; m = re.exec(e)) {
    const rest = e.slice(m.index + m[0].length);
    if (/^\s*\(/.test(rest)) continue; // a function or aggregation
    if (KEYWORDS.has(m[0].toLowerCase())) continue;
    names.add(m[0]);
  }
  return [...names];
}
