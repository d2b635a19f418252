// A connection's freshness on the connections page: change in the ERP → billing's 2xx, p50 and p99 over
// the last hour (GET /connections `freshness`), coloured against the p99 the alert
// ErpSyncChangeToBillingSlow fires above (`freshness.alertAboveSeconds`: the API gives the alert's own
// number, so the page and the alert never disagree).
import { el } from './ui.js';

/** "0.8 s", "12 s", "4.5 min", "3.2 h", "41 days": a latency short enough for a table cell. */
export function latency(s) {
  if (s < 10) return `${Number(s.toFixed(2))} s`;
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${Number((s / 60).toFixed(1))} min`;
  if (s < 172_800) return `${Number((s / 3600).toFixed(1))} h`;
  return `${Math.round(s / 86_400)} days`;
}

/**
 * How a p99 reads against the alert: `ok` at or under it; `slow` above it on a connection whose changes
 * come by webhook (the alert's case); `polled` above it on a connection that polls, whose changes wait
 * for the next pull by design (the alert does not watch those).
 */
export function freshnessVerdict(c) {
  const f = c.freshness;
  if (!f.samples || f.p99Seconds === null) return 'none';
  if (f.p99Seconds <= f.alertAboveSeconds) return 'ok';
  return c.webhooks?.mode === 'webhooks' ? 'slow' : 'polled';
}

const SAYS = {
  none: () => 'no change written in the last hour',
  ok: (f) => `p99 within the alert's ${f.alertAboveSeconds} s`,
  slow: (f) => `p99 above the alert's ${f.alertAboveSeconds} s (ErpSyncChangeToBillingSlow)`,
  polled: (f, c) =>
    `above ${f.alertAboveSeconds} s: polled every ${latency(c.webhooks?.pullEverySeconds ?? c.schedule.everySeconds)}, a change waits for the next pull`,
};

/** The cell: p50 and p99 with the verdict in words and colour, and how many changes they come from. */
export function freshnessCell(c) {
  const f = c.freshness;
  const verdict = freshnessVerdict(c);
  const figures =
    verdict === 'none'
      ? []
      : [
          el('span', { class: 'p50', 'data-seconds': f.p50Seconds }, `p50 ${latency(f.p50Seconds)}`),
          ' · ',
          el('span', { class: 'p99', 'data-seconds': f.p99Seconds }, `p99 ${latency(f.p99Seconds)}`),
        ];
  return el(
    'td',
    { class: `freshness freshness-${verdict}`, 'data-verdict': verdict },
    figures,
    el(
      'div',
      { class: 'hint' },
      SAYS[verdict](f, c),
      verdict === 'none' ? '' : `; ${f.samples} change(s), last ${f.windowSeconds / 60} min`,
    ),
  );
}
