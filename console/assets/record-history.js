// A record's history on its lineage page: every outcome on record for it (written, unchanged, stale,
// quarantined, replayed, repaired, held, …), oldest first, as GET /api/v1/records/… answers it.
import { el, when } from './ui.js';

const what = (e) =>
  [
    e.version ? `version ${e.version}` : null,
    e.billingId ? `billing id ${e.billingId}` : null,
    e.changed ? (e.changed.length ? `changed: ${e.changed.join(', ')}` : 'no field changed') : null,
    e.reason ?? null,
  ]
    .filter(Boolean)
    .join('; ');

export function recordHistoryTable(history, connection) {
  if (!history?.length) return el('p', {}, 'No outcome on record (history is kept for history.days).');
  return el(
    'table',
    { id: 'record-history' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        ['When', 'Outcome', 'How', 'By', 'Detail'].map((h) => el('th', {}, h)),
      ),
    ),
    el(
      'tbody',
      {},
      history.map((e) =>
        el(
          'tr',
          { 'data-outcome': e.outcome },
          el('td', {}, when(e.at, connection)),
          el('td', {}, e.outcome),
          el('td', {}, e.path ?? '—'),
          el('td', {}, e.by ?? '—'),
          el('td', {}, what(e)),
        ),
      ),
    ),
  );
}
