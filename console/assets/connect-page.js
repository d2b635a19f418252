// Connecting a connection at its vendor from the console (OAuth consent): the button on the connections
// page (admins only), and the page the vendor's redirect comes back to (#/oauth-callback), which finishes
// the consent through the API and, when the grant reaches several organisations, asks which one.
import { el, enc, mayAct, notice, post, confirmAction } from './ui.js';

/** The connect (or, once the vendor refused the credentials, re-authorise) button of a connection; admins only. */
export function connectButton(c) {
  if (!mayAct('admin'))
    return c.state === 'reauthorise' ? el('div', { class: 'hint' }, 'an admin must re-authorise it') : null;
  const again = c.state === 'reauthorise';
  const text = `${again ? 'Re-authorise' : 'Connect'} ${c.id} at ${c.system}: your browser goes to ${c.system}'s consent page; once you allow access there, the new tokens are stored, sealed, in place of the ones ${c.id} holds now.`;
  return el(
    'button',
    {
      type: 'button',
      class: again ? 'primary' : undefined,
      onclick: async () => {
        if (!(await confirmAction(text))) return;
        try {
          const r = await post(`/connections/${enc(c.id)}/authorize`);
          location.assign(r.authorizeUrl);
        } catch (e) {
          notice(`Refused: ${e.message}`, 'error');
        }
      },
    },
    again ? 'Re-authorise…' : 'Connect…',
  );
}

function storedView(r) {
  return [
    el('h1', {}, `${r.connection} is connected`),
    el(
      'dl',
      { id: 'authorized' },
      el('dt', {}, 'Organisation'),
      el('dd', { id: 'organisation' }, `${r.organisation.name} (${r.organisation.id})`),
      el('dt', {}, 'Tokens'),
      el(
        'dd',
        { id: 'tokens' },
        `stored under ${r.tokenKey}, ${r.sealed === 'plain' ? 'in plain text: set ERP_SYNC_TOKEN_KEY to seal them' : `sealed under key ${r.sealed}`}${r.replaced ? ', replacing the ones before' : ''}`,
      ),
      el('dt', {}, 'Config'),
      el('dd', {}, el('pre', {}, r.configLines.join('\n'))),
    ),
    r.matchesConfig
      ? null
      : el(
          'p',
          { class: 'error' },
          `The config of ${r.connection} names another organisation: set the line above in connections[].settings and reload the config to sync this one.`,
        ),
    el('p', {}, el('a', { href: '#/connections' }, 'Back to the connections')),
  ];
}

/** The grant reaches several organisations: the person picks one (none is preselected); nothing is stored before. */
function chooseView(r, state, replace) {
  const form = el(
    'form',
    {
      id: 'choose-organisation',
      onsubmit: async (ev) => {
        ev.preventDefault();
        const organisation = new FormData(form).get('organisation');
        try {
          replace(storedView(await post('/authorizations/choose', { state, organisation })));
        } catch (e) {
          notice(`Refused: ${e.message}`, 'error');
        }
      },
    },
    el(
      'p',
      {},
      `The grant reaches ${r.organisations.length} organisations. Which one is ${r.connection} for? Nothing is stored until you choose.`,
    ),
    r.organisations.map((o) =>
      el(
        'label',
        { class: 'choice' },
        el('input', { type: 'radio', name: 'organisation', value: o.id, required: true }),
        ` ${o.name} (${o.id})`,
        o.configured ? el('span', { class: 'hint' }, ' — the one the config names') : null,
      ),
    ),
    el('p', {}, el('button', { type: 'submit', class: 'primary' }, 'Connect this organisation')),
  );
  return [el('h1', {}, `Choose the organisation of ${r.connection}`), form];
}

/** `#/oauth-callback?<the vendor's query>`: finishes the consent this session started. */
export async function oauthCallbackPage(params) {
  // The code and state leave the address bar (and the history) before anything else.
  history.replaceState(null, '', '#/oauth-callback');
  const state = params.get('state') ?? '';
  const page = /** @type {HTMLElement} */ (document.querySelector('#page'));
  const replace = (content) => page.replaceChildren(...[content].flat(2).filter(Boolean));
  try {
    const r = await post('/authorizations/callback', { query: params.toString() });
    return r.outcome === 'stored' ? storedView(r) : chooseView(r, state, replace);
  } catch (e) {
    return [
      el('h1', {}, 'Not connected'),
      el('p', { class: 'error', id: 'refused' }, e.message),
      el('p', {}, el('a', { href: '#/connections' }, 'Back to the connections')),
    ];
  }
}
