import { describe, expect, it } from 'vitest';
import { formatDuration, progressReporter } from '../../cli/progress.js';

/** A stream that records what was written, and a clock the test moves. */
function fakes(isTTY: boolean) {
  const chunks: string[] = [];
  let t = 1_000_000;
  return {
    stream: { isTTY, write: (s: string) => chunks.push(s) },
    now: () => t,
    advance: (ms: number) => (t += ms),
    chunks,
    lines: () => chunks.join('').split('\n').filter(Boolean),
  };
}

describe('progress reporter', () => {
  it('given no TTY and the same state every poll, then one line is written, not one per poll', () => {
    const f = fakes(false);
    const p = progressReporter('backfill x', { stream: f.stream, now: f.now });
    for (let i = 0; i < 300; i++) {
      p.update({ done: 0, total: 84, records: 0, detail: '· pending 0' });
      f.advance(2_000);
    }
    expect(f.lines()).toEqual(['backfill x: 0/84 windows · 0 records · 0.0 records/s · pending 0']);
  });

  it('given no TTY and changes every second, then lines are at least 30 s apart', () => {
    const f = fakes(false);
    const p = progressReporter('backfill x', { stream: f.stream, now: f.now });
    for (let i = 1; i <= 70; i++) {
      f.advance(1_000);
      p.update({ done: i, total: 100, records: i * 10 });
    }
    // At 1 s, 31 s and 61 s.
    expect(f.lines()).toHaveLength(3);
    expect(f.lines()[0]).toBe('backfill x: 1/100 windows · 10 records · 10.0 records/s · ETA 1m39s');
    expect(f.lines()[1]).toMatch(/^backfill x: 31\/100 windows · 310 records/);
    expect(f.lines()[2]).toMatch(/^backfill x: 61\/100 windows · 610 records/);
  });

  it('given no TTY, when it ends, then a summary line is always written, even right after a progress line', () => {
    const f = fakes(false);
    const p = progressReporter('backfill x', { stream: f.stream, now: f.now });
    p.update({ done: 1, total: 2, records: 5 });
    f.advance(10_000);
    p.update({ done: 2, total: 2, records: 40 });
    p.end();
    expect(f.lines()).toEqual([
      'backfill x: 1/2 windows · 5 records · 0.0 records/s · ETA 0s',
      'backfill x: finished 2/2 windows, 40 records in 10s (4.0 records/s)',
    ]);
  });

  it('given a TTY, then the bar is redrawn in place with records, rate and ETA, and ends with a summary line', () => {
    const f = fakes(true);
    const p = progressReporter('backfill x', { stream: f.stream, now: f.now });
    f.advance(10_000);
    p.update({ done: 21, total: 84, records: 1000, detail: '· pending 3' });
    expect(f.chunks[0]).toBe(
      '\rbackfill x [######..................] 25% 21/84 windows · 1000 records · 100.0 records/s · ETA 30s · pending 3\x1b[K',
    );
    f.advance(10_000);
    p.update({ done: 84, total: 84, records: 4000 });
    p.end();
    expect(f.chunks.slice(1)).toEqual([
      '\rbackfill x [########################] 100% 84/84 windows · 4000 records · 200.0 records/s\x1b[K',
      '\n',
      'backfill x: finished 84/84 windows, 4000 records in 20s (200.0 records/s)\n',
    ]);
  });

  it('given a stop short of the end, then the summary says where it stopped', () => {
    const f = fakes(false);
    const p = progressReporter('backfill x', { stream: f.stream, now: f.now });
    p.update({ done: 3, total: 10, records: 30 });
    f.advance(3_000);
    p.end(false);
    expect(f.lines().at(-1)).toBe('backfill x: stopped at 3/10 windows, 30 records in 3s (10.0 records/s)');
  });

  it('formats durations for a progress line', () => {
    expect([formatDuration(0), formatDuration(42_400), formatDuration(185_000), formatDuration(3_725_000)]).toEqual([
      '0s',
      '42s',
      '3m05s',
      '1h02m',
    ]);
  });
});
