// The reconciliations page (#/reconciliations): each connection's latest reconciliation, its drift by
// kind, every drifted record (a person resolves with a note the kinds a sync cannot fix), and a form to
// run a reconciliation. Everything through /api/v1/reconciliations.
import { act, day, el, enc, get, mayAct, notice, post, shell, todayIn, when, zoneNote } from './ui.js';

/** What each kind of drift means, in a line. */
const KINDS = {
  missing_in_billing: 'in the source, not in billing (a sync writes it)',
  orphan_in_billing: 'in billing, unknown to the source',
  field_mismatch: 'billing differs from the source (a sync writes it again)',
  stale_version: 'billing holds an older version (a sync writes the newer)',
  ledger_ahead_of_source: 'the ledger holds a version the source never had (a repair writes it again)',
  void_not_reflected: 'voided in the source, live in billing',
  void_in_billing_only: 'voided in billing, live in the source',
  delete_not_reflected: 'deleted in the source, still in billing',
  deleted_in_billing_only: 'deleted in billing, live in the source',
  duplicate: 'more than one billing invoice for one record',
  lost_in_flight: 'its write was lost and redone',
};

/** A reconciliation's days are days in `reconcile.timeZone` (the session names it): today is today there. */
const reconcileZone = () => shell.session?.reconcileZone ?? 'UTC';
const today = () => todayIn(undefined, reconcileZone());

function runForm(connection) {
  const from = el('input', { type: 'date', name: 'from', value: today(), required: true });
  const to = el('input', { type: 'date', name: 'to', value: today(), required: true });
  const deep = el('input', { type: 'checkbox', name: 'deep' });
  const repair = el('input', { type: 'checkbox', name: 'repair' });
  return el(
    'form',
    {
      class: 'filters run-reconcile',
      onsubmit: (ev) => {
        ev.preventDefault();
        const body = { connection, from: from.value, to: to.value, deep: deep.checked, repair: repair.checked };
        const how = `${deep.checked ? ', reading the source too (deep)' : ''}${repair.checked ? ', writing again what a sync can fix (repair)' : ''}`;
        act(
          `Reconcile ${connection} for invoices dated ${body.from} to ${body.to}: billing is compared with what was synced${how}. A reconcile worker runs it; the report below is its result.`,
          async () => {
            const r = await post('/reconciliations', body);
            return `Reconcile of ${connection} queued: job ${r.jobId}.`;
          },
        );
      },
    },
    el('label', {}, 'From ', from),
    el('label', {}, 'To ', to),
    el('span', { class: 'hint' }, `days in ${reconcileZone()}`),
    el('label', {}, deep, ' deep'),
    el('label', {}, repair, ' repair'),
    el('button', { type: 'submit' }, 'Run a reconcile…'),
  );
}

function resolveControl(connection, item) {
  if (!item.needsPerson) return el('span', { class: 'hint' }, 'a sync fixes it: run a reconcile with repair');
  if (!mayAct('operator')) return el('span', { class: 'hint' }, 'needs a person');
  const note = el('input', {
    name: 'note',
    placeholder: 'what was done, or why nothing needs doing',
    maxlength: 1000,
    size: 40,
  });
  const path = `/reconciliations/${enc(connection)}/items/${enc(item.entity)}/${enc(item.erpId)}/resolve`;
  return [
    note,
    ' ',
    el(
      'button',
      {
        type: 'button',
        onclick: () => {
          if (!note.value.trim()) return notice('Say in the note what was done, or why nothing needs doing.', 'error');
          act(
            `Resolve ${item.entity}/${item.erpId} of ${connection} (${item.kinds.join(', ')}) with the note "${note.value.trim()}": it is not reported again until the record changes in the source.`,
            async () => {
              await post(path, { note: note.value.trim() });
              return `${item.entity}/${item.erpId} resolved.`;
            },
          );
        },
      },
      'Resolve…',
    ),
  ];
}

function itemRows(connection, items, resolved) {
  return items.map((i) =>
    el(
      'tr',
      { 'data-erp-id': i.erpId },
      el(
        'td',
        {},
        el('a', { href: `#/record/${enc(connection)}/${enc(i.entity)}/${enc(i.erpId)}` }, `${i.entity}/${i.erpId}`),
      ),
      el('td', {}, i.kinds.join(', '), i.detail ? el('div', { class: 'hint' }, i.detail) : null),
      el('td', {}, when(i.at, connection), el('div', { class: 'hint' }, i.window)),
      el(
        'td',
        {},
        resolved
          ? `${i.resolved.note} — ${i.resolved.by}, ${when(i.resolved.at, connection)}`
          : resolveControl(connection, i),
      ),
    ),
  );
}

function reportSection(r) {
  const counts = Object.entries(r.lastRun?.counts ?? {}).filter(([, n]) => n > 0);
  const head = el(
    'tr',
    {},
    ['Record', 'Drift', 'Found', 'Resolution'].map((h) => el('th', {}, h)),
  );
  return el(
    'section',
    { class: 'reason', 'data-connection': r.connection },
    el('h2', {}, r.connection),
    el(
      'p',
      {},
      r.lastRun
        ? `Last reconciliation ${when(r.lastRun.at, r.connection)}, invoices dated ${day(r.lastRun.from)} to ${day(r.lastRun.to)}.`
        : 'Never reconciled.',
    ),
    r.lastRun
      ? el(
          'table',
          { class: 'drift-counts' },
          el('thead', {}, el('tr', {}, el('th', {}, 'Kind'), el('th', {}, 'Records'), el('th', {}, 'What it means'))),
          el(
            'tbody',
            {},
            counts.length
              ? counts.map(([k, n]) =>
                  el(
                    'tr',
                    { 'data-kind': k },
                    el('td', {}, k),
                    el('td', { class: 'num' }, n),
                    el('td', {}, KINDS[k] ?? ''),
                  ),
                )
              : el('tr', {}, el('td', { colspan: 3 }, 'No drift.')),
          ),
        )
      : null,
    r.items.length
      ? [
          el(
            'h3',
            {},
            `Drifted records (${r.items.length}${r.truncated ? ` of ${r.items.length + r.truncated}` : ''})`,
          ),
          el(
            'table',
            { class: 'drift-items' },
            el('thead', {}, head),
            el('tbody', {}, itemRows(r.connection, r.items, false)),
          ),
        ]
      : null,
    r.resolved.length
      ? [
          el('h3', {}, 'Resolved by a person'),
          el(
            'table',
            { class: 'drift-resolved' },
            el('thead', {}, head.cloneNode(true)),
            el('tbody', {}, itemRows(r.connection, r.resolved, true)),
          ),
        ]
      : null,
    mayAct('operator') ? runForm(r.connection) : null,
  );
}

export async function reconciliationsPage() {
  const { reports } = await get('/reconciliations?limit=500');
  return [
    el('h1', {}, 'Reconciliations'),
    el(
      'p',
      { class: 'hint' },
      'Billing compared with what each connection synced: the latest reconciliation per connection.',
    ),
    zoneNote(reports.map((r) => r.connection)),
    reports.map(reportSection),
  ];
}
