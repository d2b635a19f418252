import type { RunningQuickBooksEmulator } from '../../../sandbox/quickbooks/index.js';

/** Raw HTTP against the sandbox (emulator tests that look at the wire, not through the connector). */
export async function qboGet(
  emu: RunningQuickBooksEmulator,
  path: string,
  params: Record<string, string> = {},
  token: string | undefined = emu.tokens.issue(),
) {
  const url = new URL(`${emu.url}/v3/company/${emu.realmId}/${path}`);
  for (const [k, v] of Object.entries({ minorversion: '75', ...params })) url.searchParams.set(k, v);
  const res = await fetch(url, {
    headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

export async function qboQuery(emu: RunningQuickBooksEmulator, statement: string, token?: string) {
  return qboGet(emu, 'query', { query: statement }, token);
}

export async function admin(emu: RunningQuickBooksEmulator, path: string, body?: unknown) {
  const res = await fetch(`${emu.url}/__admin/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

export async function refresh(
  emu: RunningQuickBooksEmulator,
  refreshToken: string,
  client = 'qbo-sandbox-client:qbo-sandbox-secret',
) {
  const res = await fetch(`${emu.url}/oauth2/v1/tokens/bearer`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(client).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
