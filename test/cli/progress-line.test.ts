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
  windows: null,
  secondsLeft: null,
};

describe('progressLine: a pull running now, as erp-sync connections prints it', () => {
  it('given a first sync, then the records read and the rate, and no time left (nothing announced a total)', () => {
    expect(progressLine(base)).toBe(
      'invoices: first sync since 2026-12-07T10:00:00.000Z: 600 record(s) read, 580 enqueued, 12.5 records/s',
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
