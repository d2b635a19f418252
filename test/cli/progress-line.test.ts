import { describe, expect, it } from 'vitest';
import { progressLine } from '../../cli/progress-line.js';
import type { StreamProgress } from '../../operations/stream-progress.js';

const base: StreamProgress = {
  entity: 'invoices',
  kind: 'first-sync',
  jobId: '42',
  since: '2026-12-07T10:00:00.000Z',
  pages: 3,
  pulled: 600,
  enqueued: 580,
  recordsPerSecond: 12.5,
  window: null,
  total: null,
  windows: null,
  secondsLeft: null,
};

describe('progressLine: a pull running now, as erp-sync connections and status print it', () => {
  it('given a first sync whose total is not known yet, then the records read and the rate, and no time left', () => {
    expect(progressLine(base)).toBe(
      'invoices: first sync since 2026-12-07T10:00:00.000Z: 600 record(s) read, 580 enqueued, 12.5 records/s',
    );
  });

  it('given a first sync whose vendor announced its total, then the records read of it and the time left', () => {
    const line = progressLine({ ...base, total: { records: 5000, source: 'vendor' }, secondsLeft: 352 });
    expect(line).toBe(
      'invoices: first sync since 2026-12-07T10:00:00.000Z: 600 of 5000 record(s) read, 580 enqueued, 12.5 records/s, about 5m52s left',
    );
  });

  it('given a repair whose total was counted at the source, then the total says it is an estimate', () => {
    const line = progressLine({
      ...base,
      kind: 'repair',
      total: { records: 900, source: 'estimate' },
      secondsLeft: 24,
    });
    expect(line).toBe(
      'invoices: repair pull since 2026-12-07T10:00:00.000Z: 600 of 900 (estimated) record(s) read, 580 enqueued, 12.5 records/s, about 24s left',
    );
  });

  it('given a backfill window, then its days, its windows done of all and the time left at its pace', () => {
    const line = progressLine({
      ...base,
      kind: 'backfill',
      window: { from: '2025-01-01', to: '2025-01-30' },
      windows: { done: 3, total: 12 },
      secondsLeft: 185,
    });
    expect(line).toBe(
      'invoices: backfill 2025-01-01..2025-01-30 since 2026-12-07T10:00:00.000Z: 600 record(s) read, 580 enqueued, 3 of 12 windows done, 12.5 records/s, about 3m05s left',
    );
  });
});
