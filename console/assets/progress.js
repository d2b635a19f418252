// A pull running now, under its entity on the connections page (GET /connections `progress`): a first
// sync, a backfill window or a repair, with the records read so far of its total (the vendor's announced
// total, else the count at the source, said to be an estimate), the rate, and the time left at its pace;
// a backfill also its windows done of all. Until a total is known, it says so rather than guessing.
import { day, el, when } from './ui.js';

const KIND = { 'first-sync': 'First sync', backfill: 'Backfill', repair: 'Repair pull', incremental: 'Pull' };

/** "45 s", "12 min", "3.5 h": a time left. */
const left = (s) => (s < 90 ? `${s} s` : s < 5400 ? `${Math.round(s / 60)} min` : `${Number((s / 3600).toFixed(1))} h`);

/** One running pull of a connection's stream, as a line (and a bar where a total is known). */
export function progressView(p, connection) {
  const window = p.window ? ` of ${day(p.window.from)} – ${day(p.window.to)}` : '';
  const parts = [
    el('strong', {}, `${KIND[p.kind] ?? p.kind}${window}`),
    ' since ',
    when(p.since, connection),
    ': ',
    el('span', { class: 'pulled', 'data-n': p.pulled }, `${p.pulled.toLocaleString()}`),
    p.total
      ? [
          ' of ',
          el(
            'span',
            { class: 'total', 'data-n': p.total.records, 'data-source': p.total.source },
            p.total.records.toLocaleString(),
          ),
          p.total.source === 'estimate' ? el('em', { class: 'estimate' }, ' (estimate: counted at the source)') : '',
        ]
      : '',
    ' record(s) read',
    `, ${p.enqueued.toLocaleString()} for billing`,
    p.recordsPerSecond === null
      ? ''
      : [', ', el('span', { class: 'rate', 'data-n': p.recordsPerSecond }, `${p.recordsPerSecond} records/s`)],
  ];
  const timeLeft =
    p.secondsLeft === null
      ? ''
      : el('span', { class: 'left', 'data-seconds': p.secondsLeft }, `, about ${left(p.secondsLeft)} left`);
  const total = p.windows
    ? [
        el('progress', { max: p.windows.total, value: p.windows.done }),
        ` ${p.windows.done} of ${p.windows.total} windows done`,
        timeLeft,
      ]
    : p.total
      ? [
          el('progress', { class: 'records', max: p.total.records, value: Math.min(p.pulled, p.total.records) }),
          timeLeft,
        ]
      : el('div', { class: 'hint' }, p.kind === 'incremental' ? '' : 'total not known yet: time left unknown');
  return el(
    'div',
    { class: `progress progress-${p.kind}`, 'data-entity': p.entity, 'data-job': p.jobId },
    parts,
    total,
  );
}
