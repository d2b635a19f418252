import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUES } from '../../jobs/catalog.js';
import { type Harness, startHarness } from '../support/harness.js';
import { opsService } from './support/ops-service.js';
import { requireBinary } from './support/require-binary.js';

/** What a live worker's /metrics looks like to Prometheus' own linter and to stock Node dashboards. */
describe("a running worker's /metrics", () => {
  let stack: Harness;
  let text: string;
  beforeAll(async () => {
    stack = await startHarness(opsService('metrics-lint'));
    await stack.waitForPull('invoices', 40_000);
    text = await stack.metrics();
  }, 60_000);
  afterAll(() => stack?.close());

  it('passes `promtool check metrics` (exit 0, nothing reported)', () => {
    const promtool = requireBinary('promtool', 'prometheus');
    const r = spawnSync(promtool, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(`${r.stdout}${r.stderr}`.trim()).toBe('');
    expect(r.status).toBe(0);
  });

  it("exports Node's process metrics under their standard names, and erpsync_build_info", () => {
    expect(text).toMatch(/^process_resident_memory_bytes \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    expect(text).not.toMatch(/^erpsync_(process|nodejs)_/m);
    expect(text).toMatch(
      new RegExp(`^erpsync_build_info\\{version="[^"]+",commit="[^"]+",node="${process.version}"\\} 1$`, 'm'),
    );
  });

  it('starts known series at 0 (stalls per queue, 429s per target) instead of leaving them absent', () => {
    for (const queue of Object.values(QUEUES)) expect(text).toContain(`erpsync_jobs_stalled_total{queue="${queue}"} 0`);
    expect(text).toMatch(/^erpsync_rate_limited_total\{target="billing"\} \d+$/m);
  });

  it('uses one vocabulary for HTTP outcomes: status_class is 2xx, 3xx, 4xx, 5xx or none', () => {
    const classes = new Set([...text.matchAll(/status_class="([^"]+)"/g)].map((m) => m[1]));
    expect(classes.size).toBeGreaterThan(0);
    for (const c of classes) expect(['2xx', '3xx', '4xx', '5xx', 'none']).toContain(c);
  });

  it('reports maxmemory, so an unset one can be alerted on', () => {
    expect(text).toMatch(/^erpsync_redis_maxmemory_bytes \d+$/m);
  });
});
