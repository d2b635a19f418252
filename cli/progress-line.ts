import type { StreamProgress } from '../operations/stream-progress.js';
import { formatDuration } from './progress.js';

const KIND: Record<StreamProgress['kind'], string> = {
  'first-sync': 'first sync',
  backfill: 'backfill',
  repair: 'repair pull',
  incremental: 'pull',
};

/** A pull running now on one line, as `connections` and `status` print it: what, records so far, rate, and time left where a total is known. */
export function progressLine(p: StreamProgress): string {
  const window = p.window ? ` ${p.window.from}..${p.window.to}` : '';
  const windows = p.windows ? `, ${p.windows.done} of ${p.windows.total} windows done` : '';
  const total = !p.total ? '' : ` of ${p.total.records}${p.total.source === 'estimate' ? ' (estimated)' : ''}`;
  const rate = p.recordsPerSecond === null ? '' : `, ${p.recordsPerSecond} records/s`;
  const left = p.secondsLeft === null ? '' : `, about ${formatDuration(p.secondsLeft * 1000)} left`;
  return `${p.entity}: ${KIND[p.kind]}${window} since ${p.since}: ${p.pulled}${total} record(s) read, ${p.enqueued} enqueued${windows}${rate}${left}`;
}
