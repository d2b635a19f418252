import { describe, expect, it } from 'vitest';
import { longReadOf, progressGauges, pullTotal, secondsLeftOf } from '../../../jobs/pull/pull-total.js';
import type { PullRun } from '../../../jobs/pull/types.js';
import { createMetrics } from '../../../src/observability/metrics.js';

const page = (announcedTotal?: number) => ({ records: [], state: { cursor: null }, announcedTotal });

describe('a long read: its kind, its total and the time left', () => {
  it('given a pull, then a backfill window, a repair and a never-synced stream are long reads; a webhook read and an incremental pull are not', () => {
    expect(longReadOf({ data: { connectionId: 'c', entity: 'invoices', window: { from: 'a', to: 'b' } } }, false)).toBe(
      'backfill',
    );
    expect(longReadOf({ data: { connectionId: 'c', entity: 'invoices', runId: 'r1' } }, false)).toBe('repair');
    expect(longReadOf({ data: { connectionId: 'c', entity: 'invoices' } }, true)).toBe('first-sync');
    expect(longReadOf({ data: { connectionId: 'c', entity: 'invoices' } }, false)).toBeNull();
    expect(
      longReadOf({ data: { connectionId: 'c', entity: 'invoices', webhook: { batch: 'b' } } as never }, true),
    ).toBeNull();
  });

  it('given the records done, the total and the pace, then the seconds left; none without a total, a pace, or past the total', () => {
    expect(secondsLeftOf(600, { records: 5000, source: 'vendor' }, 12.5)).toBe(352);
    expect(secondsLeftOf(600, null, 12.5)).toBeNull();
    expect(secondsLeftOf(600, { records: 5000, source: 'estimate' }, null)).toBeNull();
    expect(secondsLeftOf(5200, { records: 5000, source: 'estimate' }, 12.5)).toBeNull();
  });

  it('given a page announcing the total, then the total is the vendor’s from the first page, with no count made', async () => {
    const totals = pullTotal({} as PullRun, 'first-sync', {} as never);
    expect(await totals.afterPage(page(240), 1)).toEqual({ records: 240, source: 'vendor' });
    expect(await totals.afterPage(page(), 2)).toEqual({ records: 240, source: 'vendor' });
    expect(await pullTotal({} as PullRun, null, {} as never).afterPage(page(240), 1)).toBeNull();
  });

  it('given a long read running, then its gauges say records read, the total and the time left by connection and entity, and go when it stops', async () => {
    const metrics = createMetrics();
    const run = { conn: 'zoho-acme', entity: 'invoices', rt: { metrics } } as unknown as PullRun;
    const gauges = progressGauges(run, 'first-sync', 0);
    gauges.set(600, { records: 5000, source: 'estimate' }, 48_000);
    const text = await metrics.registry.metrics();
    expect(text).toContain('erpsync_pull_progress_records{connection="zoho-acme",entity="invoices"} 600');
    expect(text).toContain('erpsync_pull_progress_total_records{connection="zoho-acme",entity="invoices"} 5000');
    expect(text).toContain('erpsync_pull_progress_seconds_left{connection="zoho-acme",entity="invoices"} 352');
    gauges.clear();
    expect(await metrics.registry.metrics()).not.toMatch(/erpsync_pull_progress_\w+\{/);
    // An incremental pull reports none.
    progressGauges(run, null, 0).set(10, null, 1000);
    expect(await metrics.registry.metrics()).not.toMatch(/erpsync_pull_progress_\w+\{/);
  });
});
