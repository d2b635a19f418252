// Small trend charts drawn as plain SVG by the page itself (no chart library: the console loads nothing
// from another origin, and its CSP allows no inline script). The first: records read per hour over the
// last 24 hours, from the runs on record (GET /runs: each pull and backfill window with its counts).
import { el, locales, zoneOf } from './ui.js';

const SVG = 'http://www.w3.org/2000/svg';
const HOUR_MS = 3_600_000;

/**
 * An SVG element with attributes and children.
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {...(SVGElement | string)} children
 * @returns {SVGElement}
 */
function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  for (const c of children) e.append(c);
  return e;
}

/**
 * Records read per hour, the 24 hours up to `now` (oldest first): each run counted in the hour it started.
 * @param {Array<{ kind: string, startedAt?: string, at?: string, counts: Record<string, number> }>} runs
 * @param {number} now
 * @returns {number[]}
 */
export function recordsPerHour(runs, now) {
  const hours = new Array(24).fill(0);
  const end = Math.floor(now / HOUR_MS) * HOUR_MS + HOUR_MS;
  for (const r of runs) {
    if (r.kind === 'reconcile') continue;
    const at = Date.parse(r.startedAt ?? r.at ?? '');
    const slot = 23 - Math.floor((end - 1 - at) / HOUR_MS);
    if (Number.isFinite(at) && slot >= 0 && slot < 24) hours[slot] += r.counts.pulled ?? 0;
  }
  return hours;
}

/**
 * A bar chart of `values` (one bar each, oldest first; null: no sample, no bar) with its largest value
 * marked, 480×120; `limit`, when given, is drawn as a dashed line (a quota, an alert's threshold).
 * @param {Array<number | null>} values
 * @param {{ title: string, labels: string[], unit: string, limit?: number | null, limitLabel?: string }} o
 */
export function barChart(values, o) {
  const w = 480;
  const h = 120;
  const limit = typeof o.limit === 'number' ? o.limit : null;
  const top = Math.max(1, ...values.map((v) => v ?? 0), limit ?? 0);
  const y = (/** @type {number} */ v) => h - 14 - Math.round((v / top) * (h - 20));
  const bw = w / values.length;
  const bars = values.map((v, i) =>
    svg(
      'rect',
      { x: i * bw + 1, y: y(v ?? 0), width: Math.max(1, bw - 2), height: h - 14 - y(v ?? 0), class: 'bar' },
      svg('title', {}, `${o.labels[i]}: ${v === null ? 'no sample' : `${v} ${o.unit}`}`),
    ),
  );
  values.forEach((v, i) => bars[i]?.setAttribute('data-value', v === null ? '' : String(v)));
  const marks =
    limit === null
      ? []
      : [
          svg('line', { x1: 0, y1: y(limit), x2: w, y2: y(limit), class: 'limit', 'data-limit': limit }),
          svg('text', { x: 2, y: y(limit) - 2, class: 'tick' }, `${o.limitLabel ?? 'limit'} ${limit} ${o.unit}`),
        ];
  return svg(
    'svg',
    { viewBox: `0 0 ${w} ${h}`, width: w, height: h, role: 'img', 'aria-label': o.title, class: 'trend' },
    svg('title', {}, o.title),
    ...bars,
    ...marks,
    svg('line', { x1: 0, y1: h - 13, x2: w, y2: h - 13, class: 'axis' }),
    svg('text', { x: 0, y: h - 1, class: 'tick' }, o.labels[0] ?? ''),
    svg('text', { x: w, y: h - 1, class: 'tick', 'text-anchor': 'end' }, o.labels[values.length - 1] ?? ''),
    svg(
      'text',
      { x: w, y: 10, class: 'tick', 'text-anchor': 'end' },
      `max ${Number(Math.max(0, ...values.map((v) => v ?? 0)).toFixed(1))} ${o.unit}`,
    ),
  );
}

/**
 * The runs page's chart: records read per hour, last 24 h, hours on the billing company's clock.
 * @param {Array<{ kind: string, connection: string, startedAt?: string, at?: string, counts: Record<string, number> }>} runs
 * @param {number} [now]
 */
export function recordsPerHourChart(runs, now = Date.now()) {
  const values = recordsPerHour(runs, now);
  const hour = new Intl.DateTimeFormat(locales(), { hour: 'numeric', timeZone: zoneOf(runs[0]?.connection) });
  const end = Math.floor(now / HOUR_MS) * HOUR_MS + HOUR_MS;
  const labels = values.map((_, i) => hour.format(new Date(end - (24 - i) * HOUR_MS)));
  const total = values.reduce((a, b) => a + b, 0);
  return el(
    'figure',
    { class: 'trend-figure', id: 'records-per-hour', 'data-total': total },
    barChart(values, { title: 'Records read per hour, last 24 h', labels, unit: 'records' }),
    el(
      'figcaption',
      { class: 'hint' },
      `Records read per hour over the last 24 h (${total} in all), from the runs on record below: each stream keeps its last sync.runHistory runs, so a busy day may show only its latest hours.`,
    ),
  );
}
