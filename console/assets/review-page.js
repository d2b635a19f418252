// The review page (#/review): records held before they are written to billing (`connections[].review`),
// grouped by connection and the rule that held them, each with the body that would be sent. An operator
// approves one or all of a connection, or rejects one with a note; a first-sync connection shows what its
// first sync adds up to. Everything through /api/v1/review.
import { act, el, enc, get, mayAct, notice, post, when, zoneNote } from './ui.js';

const recordLink = (r) =>
  el('a', { href: `#/record/${enc(r.connection)}/${enc(r.entity)}/${enc(r.erpId)}` }, `${r.entity}/${r.erpId}`);

function approveOne(r) {
  return el(
    'button',
    {
      type: 'button',
      onclick: () =>
        act(
          `1 record will be written to billing: ${r.entity}/${r.erpId}${r.number ? ` (${r.number}, ${r.total} ${r.currency})` : ''} of ${r.connection}, exactly as shown.`,
          async () => {
            const a = await post(`/review/${enc(r.connection)}/approve`, { entity: r.entity, erpIds: [r.erpId] });
            return `Approved ${a.approved}: ${r.entity}/${r.erpId} is queued for billing.`;
          },
        ),
    },
    'Approve…',
  );
}

function rejectOne(r) {
  const note = el('input', { name: 'note', placeholder: 'why it is not written', maxlength: 1000, size: 28 });
  return [
    note,
    ' ',
    el(
      'button',
      {
        type: 'button',
        onclick: () => {
          if (!note.value.trim()) return notice('Say in the note why the record is not written.', 'error');
          act(
            `${r.entity}/${r.erpId} of ${r.connection} will not be written to billing, with the note "${note.value.trim()}". It stays rejected until the source changes it again.`,
            async () => {
              await post(`/review/${enc(r.connection)}/reject`, {
                entity: r.entity,
                erpIds: [r.erpId],
                note: note.value.trim(),
              });
              return `${r.entity}/${r.erpId} rejected.`;
            },
          );
        },
      },
      'Reject…',
    ),
  ];
}

function recordRow(r) {
  const doc = r.number ? `${r.number} · ${r.total} ${r.currency}` : '';
  const state =
    r.state === 'rejected' ? `rejected by ${r.rejected.by}: ${r.rejected.note}` : `held ${when(r.since, r.connection)}`;
  return el(
    'tr',
    { 'data-erp-id': r.erpId, 'data-state': r.state },
    el('td', {}, recordLink(r), el('div', { class: 'hint' }, `version ${r.version}`)),
    el('td', {}, doc, r.customer ? el('div', { class: 'hint' }, r.customer) : null),
    el('td', {}, state),
    el(
      'td',
      {},
      el('details', {}, el('summary', {}, 'Body that would be sent'), el('pre', {}, JSON.stringify(r.body, null, 2))),
    ),
    el('td', {}, r.state === 'held' && mayAct('operator') ? [approveOne(r), ' ', ...rejectOne(r)] : null),
  );
}

function ruleTable(rule, records) {
  return [
    el('h3', {}, `Rule ${rule} (${records.length})`),
    el(
      'table',
      { class: 'held', 'data-rule': rule },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ['Record', 'Document', 'State', 'Body', ''].map((h) => el('th', {}, h)),
        ),
      ),
      el('tbody', {}, records.map(recordRow)),
    ),
  ];
}

function approveAll(c, held) {
  const firstSync = c.review === 'first-sync';
  return el(
    'button',
    {
      type: 'button',
      class: 'approve-all',
      onclick: () =>
        act(
          `${held} records will be written to billing from ${c.id}${firstSync ? '; its first sync is approved, and from now on its records are written without review' : ''}.`,
          async () => {
            const a = await post(`/review/${enc(c.id)}/approve`, { all: true });
            return `Approved ${a.approved} of ${c.id}: queued for billing.${a.firstSyncApproved ? ' Its first sync is approved.' : ''}`;
          },
        ),
    },
    `Approve all ${held}…`,
  );
}

async function firstSyncSummary(id) {
  const s = await get(`/review/${enc(id)}/summary`);
  return el(
    'div',
    { class: 'first-sync-summary' },
    el('h3', {}, 'What the first sync adds up to'),
    el(
      'p',
      {},
      `${s.held} held: ${
        Object.entries(s.byEntity)
          .map(([e, n]) => `${n} ${e}`)
          .join(', ') || 'none'
      }.`,
    ),
    el(
      'table',
      { class: 'totals' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ['Entity', 'Currency', 'Documents', 'Total'].map((h) => el('th', {}, h)),
        ),
      ),
      el(
        'tbody',
        {},
        s.totals.map((t) =>
          el(
            'tr',
            {},
            el('td', {}, t.entity),
            el('td', {}, t.currency),
            el('td', { class: 'num' }, t.count),
            el('td', { class: 'num' }, t.total),
          ),
        ),
      ),
    ),
    s.largest.length
      ? [
          el('h4', {}, 'Largest documents'),
          el(
            'ul',
            {},
            s.largest.map((i) =>
              el(
                'li',
                {},
                `${i.entity}/${i.erpId} ${i.number ?? ''} ${i.total} ${i.currency}${i.customer ? ` — ${i.customer}` : ''}`,
              ),
            ),
          ),
        ]
      : null,
    el('h4', {}, `Customers to be created in billing (${s.customersToCreate.length})`),
    s.customersToCreate.length
      ? el(
          'ul',
          {},
          s.customersToCreate.map((b) => el('li', {}, `${b.buyerId}${b.name ? ` — ${b.name}` : ''}`)),
        )
      : null,
  );
}

async function connectionSection(c, records) {
  const held = Object.values(c.held).reduce((n, x) => n + x, 0);
  const byRule = new Map();
  for (const r of records) byRule.set(r.rule, [...(byRule.get(r.rule) ?? []), r]);
  return el(
    'section',
    { class: 'reason', 'data-connection': c.id },
    el('h2', {}, c.id),
    el(
      'p',
      {},
      `Review before write: ${c.review}. ${held} held${records.length > held ? `, ${records.length - held} rejected` : ''}.`,
    ),
    held && mayAct('operator') ? approveAll(c, held) : null,
    c.review === 'first-sync' && held ? await firstSyncSummary(c.id) : null,
    [...byRule].flatMap(([rule, rs]) => ruleTable(rule, rs)),
  );
}

export async function reviewPage() {
  const r = await get('/review?pageSize=500');
  const shown = r.connections.filter((c) => c.review !== 'none' || r.records.some((x) => x.connection === c.id));
  const sections = [];
  for (const c of shown)
    sections.push(
      await connectionSection(
        c,
        r.records.filter((x) => x.connection === c.id),
      ),
    );
  return [
    el('h1', {}, 'Review'),
    el(
      'p',
      { class: 'hint' },
      'Records held before they are written to billing, by connection and the rule that held them.',
    ),
    zoneNote(shown.map((c) => c.id)),
    r.total > r.records.length ? el('p', { class: 'hint' }, `Showing ${r.records.length} of ${r.total}.`) : null,
    sections.length ? sections : el('p', {}, 'No connection reviews its records before write.'),
  ];
}
