// The trends page: per connection, small SVG charts of what the scheduled sweep samples into each
// connection's trend series (GET /trends): vendor calls against the quota (the busiest minute of each
// hour against the per-minute limit, the rolling day against the day cap) and the freshness p99 over the
// last 24 hours, and the quarantine count over 7 days. Hours on the billing company's clock.
import { barChart } from './trend-chart.js';
import { el, get, locales, zoneNote, zoneOf } from './ui.js';

/**
 * One chart in its figure, with the figure's id and data-points (samples that are not null).
 * @param {string} id
 * @param {Array<number | null>} values
 * @param {Parameters<typeof barChart>[1]} o
 * @param {string} caption
 */
function figure(id, values, o, caption) {
  const points = values.filter((v) => v !== null).length;
  return el(
    'figure',
    { class: 'trend-figure', 'data-chart': id, 'data-points': points },
    barChart(values, o),
    el('figcaption', { class: 'hint' }, caption),
  );
}

/**
 * The four charts of one connection.
 * @param {any} c a connection of GET /trends
 */
export function connectionTrends(c) {
  const zone = zoneOf(c.id);
  const hour = new Intl.DateTimeFormat(locales(), { hour: 'numeric', timeZone: zone });
  const dayHour = new Intl.DateTimeFormat(locales(), { weekday: 'short', hour: 'numeric', timeZone: zone });
  const hours = c.hours.map((/** @type {string} */ t) => hour.format(new Date(t)));
  const buckets = c.quarantine.at.map((/** @type {string} */ t) => dayHour.format(new Date(t)));
  return el(
    'section',
    { class: 'trends-connection', 'data-connection': c.id },
    el('h2', {}, c.id),
    el(
      'div',
      { class: 'charts' },
      figure(
        'calls-minute',
        c.calls.peakMinute,
        {
          title: 'Vendor calls, busiest minute of each hour, last 24 h',
          labels: hours,
          unit: 'calls/min',
          limit: c.calls.limits.perMinute,
          limitLabel: 'limit',
        },
        `The most vendor calls in one minute of each hour, against the limit of ${c.calls.limits.perMinute} a minute.`,
      ),
      figure(
        'calls-day',
        c.calls.day,
        {
          title: 'Vendor calls in the last 24 h, hour by hour',
          labels: hours,
          unit: 'calls',
          limit: c.calls.limits.perDay,
          limitLabel: 'day cap',
        },
        c.calls.limits.perDay === null
          ? 'This connection has no day cap: the quota keeps no day count for it.'
          : `Vendor calls in the 24 h before each hour ended, against the day cap of ${c.calls.limits.perDay}.`,
      ),
      figure(
        'freshness-p99',
        c.freshness.p99Seconds,
        {
          title: 'Change → billing p99, last 24 h',
          labels: hours,
          unit: 's',
          limit: c.freshness.alertAboveSeconds,
          limitLabel: 'alert above',
        },
        `The p99 of change → billing over the hour before each hour's last sample; the alert fires above ${c.freshness.alertAboveSeconds} s. No bar: nothing was written.`,
      ),
      figure(
        'quarantine',
        c.quarantine.records,
        { title: 'Records in quarantine, last 7 days', labels: buckets, unit: 'records' },
        `Records in quarantine at the end of each ${c.quarantine.bucketHours}-hour span of the last 7 days.`,
      ),
    ),
  );
}

/** GET /trends, every connection the reader sees. */
export async function trendsPage() {
  const { connections } = await get('/trends');
  return [
    el('h1', {}, 'Trends'),
    zoneNote(connections.map((/** @type {{ id: string }} */ c) => c.id)),
    el(
      'p',
      { class: 'hint' },
      'Sampled by the worker once a sweep (every minute by default) into a small series per connection; records read per hour are on the Runs page.',
    ),
    connections.map(connectionTrends),
  ];
}
