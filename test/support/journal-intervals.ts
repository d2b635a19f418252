import type { JournalEntry } from '../../sandbox/kit/journal.js';

/**
 * Request intervals from a journal, [start, end) in ms since epoch. The emulator stamps `at` after the
 * response is written and `durationMs` from when its handler started, so `at − durationMs` is the
 * moment the request reached the handler and `at` the moment it was answered.
 */
export function intervals(entries: JournalEntry[]): Array<{ start: number; end: number; entry: JournalEntry }> {
  return entries.map((e) => ({ start: Date.parse(e.at) - e.durationMs, end: Date.parse(e.at), entry: e }));
}

/** The largest number of requests in flight at one instant (an end at t frees its slot before a start at t). */
export function maxInFlight(entries: JournalEntry[]): number {
  const events: Array<[number, number]> = [];
  for (const i of intervals(entries)) events.push([i.start, 1], [i.end, -1]);
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let cur = 0;
  let max = 0;
  for (const [, d] of events) {
    cur += d;
    max = Math.max(max, cur);
  }
  return max;
}
