// What every console page shares: building elements, calling the API with the session's CSRF token, the
// confirm dialog and notices. Each page is a module of its own that imports these (docs/console.md).
export const API = '/api/v1';

/**
 * A signed-in session as GET /console/session answers it (console/console-app.ts, sessionView).
 * @typedef {{ name: string, role: 'viewer' | 'operator' | 'admin', companies: string[] | null, csrf: string,
 *   locales: string[], zone: string, zones: Record<string, string>, reconcileZone: string }} Session
 */

/**
 * The signed-in session, and what the shell does on a redraw or a lost session.
 * @type {{ session: Session | null, route: () => Promise<void>, signedOut: (message?: string) => void }}
 */
export const shell = { session: null, route: async () => {}, signedOut: (_message) => {} };

export const $ = (sel) => document.querySelector(sel);
/**
 * An element with attributes and children (strings become text nodes; null, undefined and false are
 * left out; `on…` attributes are listeners).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [attrs]
 * @param {...any} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity))
    if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  return e;
}
/** The reader's locales: what their browser asked for (Accept-Language, as the session read it), else the browser's own. */
export const locales = () => (shell.session?.locales?.length ? shell.session.locales : [...navigator.languages]);
/** The time zone of a connection's billing company (the session names each); without a connection, the reader's companies' one. */
export const zoneOf = (connection) =>
  (connection && shell.session?.zones?.[connection]) || shell.session?.zone || 'UTC';
/** @type {Intl.DateTimeFormatOptions} */
const INSTANT = {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
};
/**
 * An instant from the API (UTC ISO) in the reader's locale and the billing company's time zone (of
 * `connection`, else the reader's companies'), always with the zone's name, so it is never ambiguous.
 */
export const when = (iso, connection) =>
  iso ? new Intl.DateTimeFormat(locales(), { ...INSTANT, timeZone: zoneOf(connection) }).format(new Date(iso)) : '—';
/** A calendar date (YYYY-MM-DD: an invoice date, a window's day) in the reader's locale. A date has no zone: it never shifts. */
export const day = (ymd) =>
  /^\d{4}-\d{2}-\d{2}$/.test(ymd ?? '')
    ? new Intl.DateTimeFormat(locales(), { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
        new Date(`${ymd}T00:00:00Z`),
      )
    : (ymd ?? '—');
/** Today's date (YYYY-MM-DD) on a connection's billing company's calendar (or `zone`'s), not the browser's or UTC's. */
export const todayIn = (connection, zone = zoneOf(connection)) =>
  new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: zone }).format(
    new Date(),
  );
/**
 * The line beside a table saying which zone its times are in: the company's, or each connection's
 * where the reader sees companies in several zones.
 */
export function zoneNote(connections) {
  const zones = shell.session?.zones ?? {};
  const ids = (connections ?? Object.keys(zones)).filter((id) => zones[id]);
  const distinct = [...new Set(ids.map((id) => zones[id]))];
  const text =
    distinct.length > 1
      ? `Times in each connection's billing company time zone: ${ids.map((id) => `${id} ${zones[id]}`).join(', ')} (others ${zoneOf()}).`
      : `Times in ${distinct[0] ?? zoneOf()}, the billing company's time zone.`;
  return el('p', { class: 'hint zone-note', 'data-zone': distinct.length > 1 ? '' : (distinct[0] ?? zoneOf()) }, text);
}
export const seconds = (s) => (s === null || s === undefined ? '—' : s < 120 ? `${s} s` : `${Math.round(s / 60)} min`);
export const enc = encodeURIComponent;

/**
 * One request to the API (or the session routes): JSON in and out, the CSRF header on anything but a
 * GET; a 401 from the API ends the session on the page; an error answer throws its message.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function call(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (method !== 'GET') headers['x-csrf-token'] = shell.session?.csrf ?? '';
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const data = text ? JSON.parse(text) : undefined;
  if (res.status === 401 && path.startsWith(API)) shell.signedOut('Your session ended: sign in again.');
  if (!res.ok) throw new Error(data?.message ?? `${res.status}`);
  return data;
}
export const get = (path) => call('GET', `${API}${path}`);
export const post = (path, body) => call('POST', `${API}${path}`, body ?? {});
const ROLES = ['viewer', 'operator', 'admin'];
/**
 * Whether the signed-in token's role may do what `needed` may (nobody signed in: nothing).
 * @param {'viewer' | 'operator' | 'admin'} needed
 */
export const mayAct = (needed) =>
  Boolean(shell.session) && ROLES.indexOf(shell.session?.role ?? '') >= ROLES.indexOf(needed);

/** Says what an action will do and resolves true only on "Do it". */
export function confirmAction(text, extra) {
  const dialog = $('#confirm');
  $('#confirm-text').textContent = text;
  $('#confirm-extra').replaceChildren(...(extra ? [extra] : []));
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) =>
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true }),
  );
}

export function notice(text, cls = 'notice') {
  $('#page').prepend(el('p', { class: cls, role: 'status' }, text));
}

/** Runs an action after its confirm, then shows what the API answered and redraws the page. */
export async function act(text, run, extra) {
  if (!(await confirmAction(text, extra))) return;
  try {
    const said = await run();
    await shell.route();
    notice(said);
  } catch (e) {
    notice(`Refused: ${e.message}`, 'error');
  }
}
