import { ZOHO_SANDBOX_DEFAULTS, type ZohoEmulator } from '../../../sandbox/zoho-books/index.js';

/** Small fetch helpers for talking to the Zoho emulator the way a client would. */
export interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

async function reply<T>(res: Response): Promise<Reply<T>> {
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T, headers: res.headers };
}

/** POST /oauth/v2/token with the sandbox credentials (form-encoded). */
export async function requestToken(emu: ZohoEmulator, overrides: Record<string, string> = {}): Promise<Reply> {
  const form = new URLSearchParams({
    grant_type: 'refresh_token',
    client_id: ZOHO_SANDBOX_DEFAULTS.clientId,
    client_secret: ZOHO_SANDBOX_DEFAULTS.clientSecret,
    refresh_token: ZOHO_SANDBOX_DEFAULTS.refreshToken,
    ...overrides,
  });
  return reply(await fetch(emu.tokenUrl, { method: 'POST', body: form }));
}

export async function accessToken(emu: ZohoEmulator): Promise<string> {
  const r = await requestToken(emu);
  const token = r.body.access_token;
  if (typeof token !== 'string') throw new Error(`no token: ${JSON.stringify(r.body)}`);
  return token;
}

/**
 * GET a Books path. `organization_id` is added unless `params.organization_id === null`. Values are encoded
 * by URLSearchParams, so a `+` offset goes out as %2B.
 */
export async function booksGet<T = Record<string, unknown>>(
  emu: ZohoEmulator,
  token: string | undefined,
  path: string,
  params: Record<string, string | number | null> = {},
  headers: Record<string, string> = {},
): Promise<Reply<T>> {
  const url = new URL(`${emu.apiBase}${path}`);
  const all = { organization_id: emu.organizationId, ...params };
  for (const [k, v] of Object.entries(all)) if (v !== null) url.searchParams.set(k, String(v));
  const auth: Record<string, string> = token === undefined ? {} : { authorization: `Zoho-oauthtoken ${token}` };
  return reply<T>(await fetch(url, { headers: { ...auth, ...headers } }));
}

export async function admin<T = Record<string, unknown>>(
  emu: ZohoEmulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<Reply<T>> {
  const init: RequestInit = { method, headers: { 'content-type': 'application/json' } };
  if (body !== undefined) init.body = JSON.stringify(body);
  return reply<T>(await fetch(`${emu.url}/__admin/${path}`, init));
}

/** Every page of a list endpoint, following page_context.has_more_page. */
export async function listAll(
  emu: ZohoEmulator,
  token: string,
  path: string,
  key: string,
  params: Record<string, string | number> = {},
): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const r = await booksGet<Record<string, unknown>>(emu, token, path, { ...params, page });
    if (r.status !== 200) throw new Error(`${path} page ${page}: ${r.status} ${JSON.stringify(r.body)}`);
    rows.push(...(r.body[key] as Record<string, unknown>[]));
    if (!(r.body.page_context as { has_more_page: boolean }).has_more_page) return rows;
  }
}
