import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../../src/config.js';
import { ACME, type ApiUnderTest, startApi } from './api-harness.js';

/** Signs in over HTTP as the console page does; answers the status, the cookie pair (`name=value`) and the CSRF token. */
async function signIn(url: string, token: string) {
  const res = await fetch(`${url}/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  const body = res.status === 200 ? ((await res.json()) as { csrf: string }) : undefined;
  return { status: res.status, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]!, csrf: body?.csrf ?? '' };
}

/** The value of one series of /metrics, 0 when absent. */
async function metric(url: string, series: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** Who the API, the console and the queue UI let in: sessions bound to their token's value, wrong tokens limited. */
describe('authentication on a running worker', () => {
  let api: ApiUnderTest;
  const logs: string[] = [];
  const connections = (headers: Record<string, string>) => fetch(`${api.url}/api/v1/connections`, { headers });

  beforeAll(async () => {
    api = await startApi('auth', { logLines: logs });
  });
  afterAll(() => api?.close());

  it('given a console session of an operator, when that token is given a new value and the config reloaded, then the session ends (401, also for a POST with its CSRF token) and the new value signs in', async () => {
    const op = api.tokens.operator;
    const s = await signIn(api.url, op.token);
    expect(s.status).toBe(200);
    expect((await connections({ cookie: s.cookie })).status).toBe(200);

    const rotated = `${op.token}-rotated`;
    const http = {
      ...api.config.http,
      tokens: api.config.http.tokens.map((t) => (t.name === op.name ? { ...t, token: rotated } : t)),
    };
    const outcome = await api.service.reload(async () => ({ ...api.config, http }) as AppConfig);
    expect(outcome.result).toBe('ok');

    expect((await connections({ cookie: s.cookie })).status).toBe(401);
    const pause = await fetch(`${api.url}/api/v1/connections/${ACME.connection}/pause`, {
      method: 'POST',
      headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(pause.status).toBe(401);
    expect((await fetch(`${api.url}/console/session`, { headers: { cookie: s.cookie } })).status).toBe(401);
    expect((await connections({ authorization: `Bearer ${op.token}` })).status).toBe(401);
    const again = await signIn(api.url, rotated);
    expect(again.status).toBe(200);
    expect((await connections({ cookie: again.cookie })).status).toBe(200);
  });

  it('given wrong tokens from one address on /admin/queues and /api/v1, when the eleventh comes in a minute, then 429 with Retry-After, right tokens too; each counted by route, logged with route and address at most 10 times, never the token', async () => {
    const wrong = (i: number) => `wrong-token-${i}-0123456789abcdef`;
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${api.url}/admin/queues`, { headers: { authorization: `Bearer ${wrong(i)}` } });
      expect(r.status).toBe(401);
    }
    // The budget is the address's: this file's earlier wrong token (the rotated one) and the three above count.
    let attempts = 3;
    for (let status = 401; status === 401; attempts++)
      status = (await connections({ authorization: `Bearer ${wrong(attempts)}` })).status;
    expect(attempts).toBeLessThanOrEqual(11);
    const limited = await connections({ authorization: `Bearer ${api.tokens.viewer.token}` });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ error: 'TOO_MANY_REQUESTS' });
    const admin = await fetch(`${api.url}/admin/queues`, {
      headers: { authorization: `Bearer ${api.tokens.legacyAdmin}` },
    });
    expect(admin.status).toBe(429);
    expect((await signIn(api.url, api.tokens.admin.token)).status).toBe(429);

    const counted = (route: string, outcome: string) =>
      metric(api.url, `erpsync_http_credentials_refused_total{route="${route}",outcome="${outcome}"}`);
    expect(await counted('queue-ui', 'refused')).toBe(3);
    // The rotated-away token of the test before, and each 401 of the loop (its last answer was the 429).
    expect(await counted('api', 'refused')).toBe(1 + (attempts - 3 - 1));
    expect(await counted('api', 'limited')).toBe(1);

    const refusals = logs.filter((l) => l.includes('wrong token'));
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals.length).toBeLessThanOrEqual(10);
    for (const line of refusals)
      expect(JSON.parse(line)).toMatchObject({ route: expect.any(String), address: '127.0.0.1' });
    const everything = logs.join('\n');
    for (let i = 0; i < attempts; i++) expect(everything).not.toContain(wrong(i));
  });
});
