// What every console page shares: building elements, calling the API with the session's CSRF token, the
// confirm dialog and notices. Each page is a module of its own that imports these (docs/console.md).
export const API = '/api/v1';

/** The signed-in session (`name`, `role`, `csrf`), and what the shell does on a redraw or a lost session. */
export const shell = { session: null, route: async () => {}, signedOut: (_message) => {} };

export const $ = (sel) => document.querySelector(sel);
/** An element with attributes and children (strings become text nodes). */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  return e;
}
/** An instant from the API (UTC ISO) in the viewer's own zone, always with that zone's name, so it is never ambiguous. */
export const when = (iso) => (iso ? new Date(iso).toLocaleString(undefined, { timeZoneName: 'short' }) : '—');
export const seconds = (s) => (s === null || s === undefined ? '—' : s < 120 ? `${s} s` : `${Math.round(s / 60)} min`);
export const enc = encodeURIComponent;

export async function call(method, path, body) {
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
/** Whether the signed-in token's role may do what `needed` may. */
export const mayAct = (needed) => ['viewer', 'operator', 'admin'].indexOf(shell.session?.role) >= ['viewer', 'operator', 'admin'].indexOf(needed);

/** Says what an action will do and resolves true only on "Do it". */
export function confirmAction(text, extra) {
  const dialog = $('#confirm');
  $('#confirm-text').textContent = text;
  $('#confirm-extra').replaceChildren(...(extra ? [extra] : []));
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true }));
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
