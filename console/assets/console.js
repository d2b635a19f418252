// The console: a same-origin client of /api/v1 (docs/console.md). Every number on a page comes from the
// API; every action says what it will do and waits for a confirm; every request that changes state
// carries the session's CSRF token. Text from the API is set as text, never parsed as HTML.
import { connectButton, oauthCallbackPage } from './connect-page.js';
import { freshnessCell } from './freshness.js';
import { progressView } from './progress.js';
import { recordsPerHourChart } from './trend-chart.js';
import { reconciliationsPage } from './reconciliations-page.js';
import { recordHistoryTable } from './record-history.js';
import { reviewPage } from './review-page.js';
import { trendsPage } from './trends-page.js';
import { $, act, call, day, el, enc, get, mayAct, notice, post, seconds, shell, when, zoneNote } from './ui.js';

// --- pages -------------------------------------------------------------------------------------------

async function connectionsPage() {
  const { connections } = await get('/connections');
  const rows = connections.map((c) =>
    el(
      'tr',
      { 'data-connection': c.id },
      el('td', {}, el('strong', {}, c.id), el('br'), `${c.system} → ${c.company}`),
      el(
        'td',
        {},
        el('span', { class: `state state-${c.state}` }, c.state === 'reauthorise' ? 're-authorise' : c.state),
        c.paused
          ? el(
              'div',
              { class: 'hint' },
              `paused ${when(c.paused.since, c.id)} by ${c.paused.by ?? '—'}: ${c.paused.reason ?? 'no reason given'}`,
            )
          : null,
      ),
      el(
        'td',
        {},
        c.entities.map((e) =>
          el(
            'div',
            {},
            `${e.entity}: lag ${seconds(e.lagSeconds)}, last success ${when(e.lastSuccess, c.id)}`,
            e.lastError ? el('div', { class: 'error' }, e.lastError.message) : null,
            c.progress.filter((p) => p.entity === e.entity).map((p) => progressView(p, c.id)),
          ),
        ),
      ),
      freshnessCell(c),
      el(
        'td',
        { class: 'num' },
        `${c.quota.used.minute ?? 0}/min of ${c.quota.limits.perMinute}`,
        el('br'),
        c.quota.projection
          ? `${c.quota.projection.perDay.polling.total} calls/day at this schedule (${c.quota.projection.verdict})`
          : '',
      ),
      el('td', {}, connectionActions(c)),
    ),
  );
  return [
    el('h1', {}, 'Connections'),
    zoneNote(connections.map((c) => c.id)),
    el(
      'table',
      {},
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ['Connection', 'State', 'Entities (lag)', 'Change → billing', 'Vendor quota', 'Actions'].map((h) =>
            el('th', {}, h),
          ),
        ),
      ),
      el('tbody', {}, rows),
    ),
  ];
}

/** Pause, resume and sync for an operator or an admin; a viewer is offered none (the API would refuse them). */
function connectionActions(c) {
  if (!mayAct('operator')) return connectButton(c);
  const paused = c.state === 'paused' || c.paused;
  const reason = el('input', { name: 'reason', placeholder: 'why (shown with the pause)', maxlength: 500 });
  return [
    paused
      ? el(
          'button',
          {
            type: 'button',
            onclick: () =>
              act(
                `Resume ${c.id}: its held jobs are released and each entity (${c.schedule.entities.join(', ')}) is pulled once now.`,
                async () => {
                  const r = await post(`/connections/${enc(c.id)}/resume`);
                  return `${c.id} resumed: ${r.released} held job(s) released.`;
                },
              ),
          },
          'Resume…',
        )
      : el(
          'button',
          {
            type: 'button',
            onclick: () =>
              act(
                `Pause ${c.id} in every worker: nothing is read from ${c.system} or written to billing for it until someone resumes it; its jobs are held from their next start.`,
                async () => {
                  await post(
                    `/connections/${enc(c.id)}/pause`,
                    reason.value.trim() ? { reason: reason.value.trim() } : {},
                  );
                  return `${c.id} paused.`;
                },
                el('label', {}, 'Reason ', reason),
              ),
          },
          'Pause…',
        ),
    ' ',
    el(
      'button',
      {
        type: 'button',
        disabled: paused,
        onclick: () =>
          act(
            `Sync ${c.id} now: an incremental pull of ${c.schedule.entities.join(', ')} from ${c.system}, whose changes are then written to billing.`,
            async () => {
              const r = await post(`/connections/${enc(c.id)}/sync`);
              return `Sync of ${c.id} queued: ${r.pulls.map((p) => p.entity).join(', ')}.`;
            },
          ),
      },
      'Sync now…',
    ),
    ' ',
    connectButton(c),
  ];
}

async function quarantinePage(params) {
  const q = new URLSearchParams();
  for (const k of ['connection', 'entity', 'reason']) if (params.get(k)) q.set(k, params.get(k));
  q.set('pageSize', '500');
  const [{ connections }, list] = await Promise.all([get('/connections'), get(`/quarantine?${q}`)]);
  const filters = el(
    'form',
    {
      class: 'filters',
      onsubmit: (ev) => {
        ev.preventDefault();
        const f = new URLSearchParams(
          [...new FormData(ev.target)].filter(([, v]) => v).map(([k, v]) => [k, String(v)]),
        );
        location.hash = `#/quarantine?${f}`;
      },
    },
    el(
      'label',
      {},
      'Connection ',
      el(
        'select',
        { name: 'connection' },
        el('option', { value: '' }, 'all'),
        connections.map((c) => el('option', { value: c.id, selected: params.get('connection') === c.id }, c.id)),
      ),
    ),
    el('label', {}, 'Entity ', el('input', { name: 'entity', value: params.get('entity') ?? '', size: 12 })),
    el(
      'label',
      {},
      'Reason ',
      el(
        'select',
        { name: 'reason' },
        el('option', { value: '' }, 'all'),
        list.byReason.map((r) =>
          el('option', { value: r.reason, selected: params.get('reason') === r.reason }, r.reason),
        ),
      ),
    ),
    el('button', { type: 'submit' }, 'Filter'),
  );
  const groups = list.byReason.filter((r) => !params.get('reason') || r.reason === params.get('reason'));
  const sections = groups.map((g) => {
    const records = list.records.filter((r) => r.reason === g.reason);
    const byConnection = [...new Set(records.map((r) => r.connection))];
    return el(
      'section',
      { class: 'reason', 'data-reason': g.reason },
      el('h2', {}, `${g.reason} — ${g.count} record(s)`),
      el('p', { class: 'hint' }, `How to fix: ${g.fixHint}`),
      mayAct('operator')
        ? byConnection.map((c) =>
            el(
              'button',
              { type: 'button', onclick: () => replayAll(c, g.reason, params.get('entity')) },
              `Replay all ${g.reason} of ${c}…`,
            ),
          )
        : null,
      el(
        'table',
        {},
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            ['Record', 'Why', 'Since', 'Attempts', ''].map((h) => el('th', {}, h)),
          ),
        ),
        el(
          'tbody',
          {},
          records.map((r) =>
            el(
              'tr',
              { 'data-erp-id': r.erpId },
              el(
                'td',
                {},
                el(
                  'a',
                  { href: `#/record/${enc(r.connection)}/${enc(r.entity)}/${enc(r.erpId)}` },
                  `${r.connection} ${r.entity}/${r.erpId}`,
                ),
              ),
              el('td', {}, r.message, r.field ? el('div', { class: 'hint' }, `field: ${r.field}`) : null),
              el('td', {}, when(r.since, r.connection)),
              el('td', { class: 'num' }, r.attempts ?? '—'),
              el(
                'td',
                {},
                el(
                  'a',
                  { href: `#/quarantined/${enc(r.connection)}/${enc(r.entity)}/${enc(r.erpId)}` },
                  'Details, replay',
                ),
              ),
            ),
          ),
        ),
      ),
    );
  });
  return [
    el('h1', {}, `Quarantine — ${list.total} record(s)`),
    zoneNote(connections.map((c) => c.id)),
    filters,
    sections.length ? sections : el('p', {}, 'Nothing in quarantine under these filters.'),
  ];
}

/** Counts first (a dry run), then replays exactly that many once confirmed. */
async function replayAll(connection, reason, entity) {
  const selection = { connection, reason, ...(entity ? { entity } : {}) };
  try {
    const dry = await post('/quarantine/replay', selection);
    await act(
      `Replay ${dry.matched} record(s) of ${connection} quarantined for ${reason}: each is read again from the source (or sent to billing again, for billing refusals); those that now map and write leave quarantine.`,
      async () => {
        const r = await post('/quarantine/replay', { ...selection, dryRun: false, expect: dry.matched });
        return `${r.replay.replayed} record(s) of ${reason} replayed.`;
      },
    );
  } catch (e) {
    notice(`Refused: ${e.message}`, 'error');
  }
}

async function quarantinedPage(connection, entity, erpId) {
  const path = `/quarantine/${enc(connection)}/${enc(entity)}/${enc(erpId)}`;
  // The source is read only on a click: each read costs the vendor quota (the API keeps one for 5 minutes).
  const r = await get(path);
  const sourceNow = el('dd', { id: 'source-now' }, 'not read: use "Read from the source"');
  const sourceRecord = el('div', { id: 'source-record' });
  const readSource = (how) => async () => {
    sourceNow.replaceChildren('reading…');
    try {
      showSource((await get(`${path}?source=${how}`)).source, sourceNow, sourceRecord, connection);
    } catch (e) {
      sourceNow.replaceChildren(`not read: ${e.message}`);
    }
  };
  return [
    el('h1', {}, `Why ${entity}/${erpId} of ${connection} did not sync`),
    zoneNote([connection]),
    el(
      'dl',
      {},
      el('dt', {}, 'Reason'),
      el('dd', { id: 'reason' }, r.reason),
      el('dt', {}, 'What'),
      el('dd', { id: 'message' }, r.message),
      el('dt', {}, 'Field at fault'),
      el('dd', {}, r.field ?? '—'),
      el('dt', {}, 'Stage'),
      el('dd', {}, r.stage),
      el('dt', {}, 'Since'),
      el('dd', {}, when(r.since, connection)),
      el('dt', {}, 'Attempts'),
      el('dd', {}, r.attempts ?? '—'),
      el('dt', {}, 'How to fix'),
      el('dd', {}, r.fixHint),
      el('dt', {}, 'In the source now'),
      sourceNow,
    ),
    el(
      'p',
      {},
      el('button', { type: 'button', onclick: readSource('true') }, 'Read from the source'),
      ' ',
      el('button', { type: 'button', onclick: readSource('fresh') }, 'Read again'),
      ' ',
      mayAct('operator')
        ? el(
            'button',
            {
              type: 'button',
              class: 'primary',
              onclick: () =>
                act(
                  `Replay ${entity}/${erpId} of ${connection}: ${r.stage === 'upsert' ? 'its mapped body is sent to billing again' : 'it is read again from the source and mapped'}; it leaves quarantine once billing has it.`,
                  async () => {
                    await post(`${path}/replay`);
                    location.hash = `#/record/${enc(connection)}/${enc(entity)}/${enc(erpId)}`;
                    return `${entity}/${erpId} replayed.`;
                  },
                ),
            },
            'Replay…',
          )
        : null,
      ' ',
      el('a', { href: `#/record/${enc(connection)}/${enc(entity)}/${enc(erpId)}` }, 'Lineage'),
    ),
    r.mapped ? [el('h2', {}, 'Mapped billing body'), el('pre', {}, JSON.stringify(r.mapped, null, 2))] : null,
    sourceRecord,
  ];
}

/** What a read from the source says: whether the record maps now, when it was read, and the record itself. */
function showSource(source, sourceNow, sourceRecord, connection) {
  const now = source.mapped;
  const verdict =
    source.state !== 'found'
      ? source.state
      : now?.ok
        ? 'maps cleanly now: a replay will sync it'
        : `still cannot be mapped: ${now?.message ?? now?.reason ?? '?'}`;
  sourceNow.replaceChildren(
    verdict,
    el(
      'div',
      { class: 'hint' },
      `read ${when(source.readAt, connection)}${source.cached ? ' (kept from an earlier read: "Read again" reads it now)' : ''}`,
    ),
  );
  sourceRecord.replaceChildren(
    ...(source.record
      ? [el('h2', {}, 'The record in the source now'), el('pre', {}, JSON.stringify(source.record, null, 2))]
      : []),
  );
}

async function recordPage(connection, entity, erpId) {
  const r = await get(`/records/${enc(connection)}/${enc(entity)}/${enc(erpId)}`);
  return [
    el('h1', {}, `Lineage of ${entity}/${erpId} (${connection})`),
    zoneNote([connection]),
    el(
      'dl',
      { id: 'lineage' },
      el('dt', {}, 'Source version written'),
      el(
        'dd',
        {},
        r.source
          ? `${r.source.version} (${r.source.status ?? 'no status'})${r.source.deletedAt ? `, deleted ${when(r.source.deletedAt, connection)}` : ''}`
          : 'never written',
      ),
      el('dt', {}, 'Upsert job'),
      el('dd', {}, r.job ? `${r.job.id}: ${r.job.state}${r.job.failedReason ? ` (${r.job.failedReason})` : ''}` : '—'),
      el('dt', {}, 'In billing'),
      el(
        'dd',
        { id: 'billing' },
        r.billing
          ? `invoice ${r.billing.number ?? r.billing.id} (id ${r.billing.id}), written ${when(r.billing.writtenAt, connection)}`
          : 'not in billing',
      ),
      el('dt', {}, 'Quarantine'),
      el(
        'dd',
        { id: 'quarantine' },
        r.quarantine ? `${r.quarantine.reason} at ${r.quarantine.stage}: ${r.quarantine.message}` : 'not quarantined',
      ),
      el('dt', {}, 'Last reconciliation'),
      el(
        'dd',
        {},
        r.reconciliation
          ? `${r.reconciliation.verdict} (${r.reconciliation.window}, ${when(r.reconciliation.at, connection)})`
          : '—',
      ),
      r.review
        ? [el('dt', {}, 'Review before write'), el('dd', { id: 'review' }, reviewState(r.review, connection))]
        : null,
    ),
    el('h2', {}, 'History'),
    recordHistoryTable(r.history, connection),
    el('h2', {}, 'Actions taken on it from the console or the API'),
    await historyOf(connection, entity, erpId),
  ];
}

/** A held or rejected version, as the lineage shows it (GET /records/… `review`). */
const reviewState = (v, connection) =>
  v.state === 'rejected'
    ? `version ${v.version} rejected by ${v.by ?? '?'}: ${v.note ?? ''} (held by rule ${v.rule} since ${when(v.since, connection)})`
    : `version ${v.version} held for review by rule ${v.rule} since ${when(v.since, connection)}`;

/** What was done to the record: its runs are per stream, so the audit log's entries naming it. */
async function historyOf(connection, entity, erpId) {
  const { entries } = await get(`/audit?connection=${enc(connection)}&limit=200`);
  const mine = entries.filter((e) => e.record === `${entity}/${erpId}`);
  return mine.length
    ? auditTable(mine)
    : el('p', {}, 'No action was taken on this record from the console or the API.');
}

function recordFinder() {
  return el(
    'form',
    {
      class: 'filters',
      onsubmit: (ev) => {
        ev.preventDefault();
        const f = new FormData(ev.target);
        location.hash = `#/record/${enc(String(f.get('connection')))}/${enc(String(f.get('entity')))}/${enc(String(f.get('erpId')))}`;
      },
    },
    el('label', {}, 'Connection ', el('input', { name: 'connection', required: true, size: 12 })),
    el('label', {}, 'Entity ', el('input', { name: 'entity', value: 'invoices', required: true, size: 10 })),
    el('label', {}, 'ERP id ', el('input', { name: 'erpId', required: true })),
    el('button', { type: 'submit' }, 'Show lineage'),
  );
}

async function runsPage(params) {
  const c = params.get('connection');
  // The chart reads as many runs as the API gives (500); the table lists the latest 100.
  const { runs: recent } = await get(`/runs?limit=500${c ? `&connection=${enc(c)}` : ''}`);
  const runs = recent.slice(0, 100);
  return [
    el('h1', {}, 'Runs'),
    zoneNote([...new Set(runs.map((r) => r.connection))]),
    recordsPerHourChart(recent),
    el(
      'table',
      {},
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ['Started', 'Kind', 'Connection', 'Entity', 'Outcome', 'Counts', 'Took'].map((h) => el('th', {}, h)),
        ),
      ),
      el(
        'tbody',
        {},
        runs.map((r) =>
          el(
            'tr',
            {},
            el('td', {}, when(r.startedAt ?? r.at, r.connection)),
            el(
              'td',
              {},
              r.kind,
              r.window ? el('div', { class: 'hint window' }, `${day(r.window.from)} – ${day(r.window.to)}`) : null,
            ),
            el('td', {}, r.connection),
            el('td', {}, r.entity ?? '—'),
            el('td', {}, r.outcome, r.error ? el('div', { class: 'error' }, r.error) : null),
            el(
              'td',
              {},
              Object.entries(r.counts)
                .map(([k, v]) => `${k} ${v}`)
                .join(', '),
            ),
            el('td', { class: 'num' }, `${(r.durationMs / 1000).toFixed(1)} s`),
          ),
        ),
      ),
    ),
    el('h2', {}, "A record's lineage"),
    recordFinder(),
  ];
}

function auditTable(entries) {
  return el(
    'table',
    { id: 'audit' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        ['When', 'Who', 'Action', 'Connection', 'Record', 'Outcome', 'Detail'].map((h) => el('th', {}, h)),
      ),
    ),
    el(
      'tbody',
      {},
      entries.map((e) =>
        el(
          'tr',
          {},
          el('td', {}, when(e.at, e.connection)),
          el('td', {}, e.who),
          el('td', {}, e.action),
          el('td', {}, e.connection ?? '—'),
          el('td', {}, e.record ?? '—'),
          el('td', {}, `${e.outcome} (${e.status})`),
          el('td', {}, e.detail ?? ''),
        ),
      ),
    ),
  );
}

async function auditPage() {
  const { entries } = await get('/audit?limit=100');
  return [
    el('h1', {}, 'Audit log'),
    el('p', { class: 'hint' }, 'Every action taken through the console or the API, newest first.'),
    zoneNote(),
    auditTable(entries),
  ];
}

// --- routing and session -------------------------------------------------------------------------------

/** Counts route() calls: a page whose data came back after a later navigation's is not shown. */
let navigations = 0;

async function route() {
  const mine = ++navigations;
  const [path, query = ''] = location.hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const params = new URLSearchParams(query);
  for (const a of document.querySelectorAll('header nav a'))
    a.classList.toggle('current', a.getAttribute('href') === `#/${parts[0]}`);
  const pages = {
    connections: () => connectionsPage(),
    quarantine: () => quarantinePage(params),
    quarantined: () => quarantinedPage(parts[1], parts[2], parts[3]),
    record: () => recordPage(parts[1], parts[2], parts[3]),
    runs: () => runsPage(params),
    trends: () => trendsPage(),
    audit: () => auditPage(),
    'oauth-callback': () => oauthCallbackPage(params),
    reconciliations: () => reconciliationsPage(),
    review: () => reviewPage(),
  };
  const page = pages[parts[0]] ?? pages.connections;
  let content;
  try {
    content = await page();
  } catch (e) {
    content = el('p', { class: 'error' }, e.message);
  }
  if (mine !== navigations) return;
  $('#page').replaceChildren(...[content].flat(2).filter(Boolean));
}

function showSignIn(message) {
  shell.session = null;
  $('header nav').hidden = true;
  $('#sign-out').hidden = true;
  $('#who').textContent = '';
  $('#page').replaceChildren();
  $('#sign-in').hidden = false;
  $('#sign-in .error').textContent = message ?? '';
}

function signedIn(s) {
  shell.session = s;
  $('#sign-in').hidden = true;
  $('header nav').hidden = false;
  $('#sign-out').hidden = false;
  $('#who').textContent = `${s.name} (${s.role}${s.companies ? `, ${s.companies.join(', ')} only` : ''})`;
  return route();
}

async function start() {
  $('#sign-in').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const input = ev.target.elements.token;
    try {
      const s = await call('POST', '/console/session', { token: input.value });
      input.value = '';
      await signedIn(s);
    } catch (e) {
      $('#sign-in .error').textContent = e.message;
    }
  });
  $('#sign-out').addEventListener('click', async () => {
    await call('POST', '/console/session/end').catch(() => {});
    showSignIn('Signed out.');
  });
  window.addEventListener('hashchange', () => shell.session && route());
  const res = await fetch('/console/session');
  if (res.ok) await signedIn(await res.json());
  else showSignIn();
}

shell.route = route;
shell.signedOut = showSignIn;
start();
