import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME, type ApiUnderTest, GLOBEX, startApi } from './api-harness.js';

interface Entry {
  id: string;
  who: string;
  action: string;
  connection?: string;
  record?: string;
  outcome: string;
  status: number;
  detail?: string;
}

const secret = (name: string) => `${name}-${randomBytes(12).toString('hex')}`;

/** The tokens of this file: unlimited ones, and one limited to each company. */
const TOKENS = {
  viewer: { name: 'finance-viewer', token: secret('vwr'), role: 'viewer' as const },
  operator: { name: 'ops-operator', token: secret('opr'), role: 'operator' as const },
  acmeOps: { name: 'acme-ops', token: secret('acm'), role: 'operator' as const, companies: [ACME.company] },
  globexViewer: { name: 'globex-viewer', token: secret('glv'), role: 'viewer' as const, companies: [GLOBEX.company] },
};

/** `erpsync_api_refusals_total` of the worker's /metrics, summed over `kept`. */
async function refusalsCounted(url: string, reason: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const lines = text
    .split('\n')
    .filter((l) => l.startsWith('erpsync_api_refusals_total{') && l.includes(`reason="${reason}"`));
  return lines.reduce((n, l) => n + Number(l.split(' ').pop()), 0);
}

/** `count` calls of `call`, `concurrency` at a time. */
async function flood(count: number, concurrency: number, call: () => Promise<{ status: number }>): Promise<number[]> {
  const statuses: number[] = [];
  let sent = 0;
  const lane = async () => {
    while (sent < count) {
      sent += 1;
      statuses.push((await call()).status);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return statuses;
}

/** The audit log against a real worker: what was done kept by age, refusals apart, only validated ids, each company its own. */
describe('the API: the audit log', () => {
  let api: ApiUnderTest;
  const audit = async (token: string, path = '/audit?limit=500') =>
    (await api.get<{ entries: Entry[] }>(path, token)).body.entries;

  beforeAll(async () => {
    api = await startApi('api-audit', { http: { tokens: Object.values(TOKENS) } });
  });
  afterAll(() => api?.close());

  it('given an operator pause, when a viewer is refused 10,200 times (403), then the pause is still in the log, the refusals are counted, and kept apart and bounded', async () => {
    const paused = await api.post(`/connections/${ACME.connection}/pause`, TOKENS.operator.token, {
      reason: 'month end',
    });
    expect(paused.status).toBe(200);
    expect((await api.post(`/connections/${ACME.connection}/resume`, TOKENS.operator.token)).status).toBe(200);
    const before = await refusalsCounted(api.url, 'role');
    const started = Date.now();
    const statuses = await flood(10_200, 40, () =>
      api.post(`/connections/${ACME.connection}/pause`, TOKENS.viewer.token, {}),
    );
    const minutes = Math.floor(Date.now() / 60_000) - Math.floor(started / 60_000) + 1;
    expect(statuses.every((s) => s === 403)).toBe(true);

    const actions = await audit(TOKENS.viewer.token);
    expect(actions.map((e) => [e.who, e.action, e.detail])).toEqual(
      expect.arrayContaining([
        ['ops-operator', 'connections.pause', 'paused: month end'],
        ['ops-operator', 'connections.resume', expect.any(String)],
      ]),
    );
    expect(
      actions.some((e) => e.who === 'finance-viewer'),
      'no refusal in the action log',
    ).toBe(false);
    expect(await refusalsCounted(api.url, 'role')).toBe(before + 10_200);
    // The refusals' stream holds the viewer's share of each minute, not 10,200 entries.
    const refusals = await audit(TOKENS.viewer.token, '/audit/refusals?limit=500');
    const viewers = refusals.filter((e) => e.who === 'finance-viewer');
    expect(viewers.length).toBeGreaterThanOrEqual(10);
    expect(viewers.length).toBeLessThanOrEqual(10 * minutes);
    expect(viewers[0]).toMatchObject({
      action: 'connections.pause',
      connection: ACME.connection,
      outcome: 'refused',
      status: 403,
    });
    // 10,200 requests: about 50 s on a loaded 2-core machine.
  }, 300_000);

  it("given two company-limited tokens, when acme's operator names globex's connection or sends text that is no id, then the entries carry no such text and globex's view never shows them", async () => {
    const phishing = 'URGENT re-authorise at https://evil.example';
    const replay = `/quarantine/${GLOBEX.connection}/invoices/${encodeURIComponent(phishing)}/replay`;
    expect((await api.post(replay, TOKENS.acmeOps.token)).status).toBe(404);
    const markup = '<img src=x onerror=alert(7)>';
    expect((await api.post('/quarantine/replay', TOKENS.acmeOps.token, { connection: markup })).status).toBe(400);
    expect(
      (await api.post('/quarantine/replay', TOKENS.acmeOps.token, { connection: ACME.connection, [markup]: 1 })).status,
    ).toBe(400);

    const globexView = await audit(TOKENS.globexViewer.token);
    expect(globexView.filter((e) => e.who === 'acme-ops')).toEqual([]);
    expect(await audit(TOKENS.globexViewer.token, '/audit/refusals?limit=500')).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ who: 'acme-ops' })]),
    );
    // The unlimited view has the three requests, about no connection or record, and none of the text.
    const acmeOps = (await audit(TOKENS.viewer.token)).filter((e) => e.who === 'acme-ops');
    expect(acmeOps.map((e) => [e.action, e.outcome, e.connection, e.record])).toEqual([
      ['quarantine.replay-selection', 'invalid', undefined, undefined],
      ['quarantine.replay-selection', 'invalid', undefined, undefined],
      ['quarantine.replay', 'not-found', undefined, undefined],
    ]);
    const text = JSON.stringify(acmeOps);
    expect(text).not.toContain('evil.example');
    expect(text).not.toContain('<img');
  });

  it('given a console sign-in with a token not configured, then 401, counted, in the refusals and not in the action log; a good one is an action', async () => {
    const before = await refusalsCounted(api.url, 'sign-in');
    const signIn = (token: string) =>
      fetch(`${api.url}/console/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
    expect((await signIn('not-a-token-of-this-deployment')).status).toBe(401);
    expect((await signIn(TOKENS.viewer.token)).status).toBe(200);
    expect(await refusalsCounted(api.url, 'sign-in')).toBe(before + 1);
    const refused = (await audit(TOKENS.viewer.token, '/audit/refusals')).filter((e) => e.action === 'console.sign-in');
    expect(refused.map((e) => [e.who, e.outcome, e.status])).toEqual([['-', 'refused', 401]]);
    const actions = (await audit(TOKENS.viewer.token)).filter((e) => e.action === 'console.sign-in');
    expect(actions.map((e) => [e.who, e.outcome, e.status])).toEqual([['finance-viewer', 'ok', 200]]);
  });

  it('given a cursor part past 2^64 − 1, then 400 naming query.before (not 500); the largest stream id is a valid cursor', async () => {
    for (const path of ['/audit', '/audit/refusals']) {
      const over = await api.get(`${path}?before=99999999999999999999-99999999999999999999`, TOKENS.viewer.token);
      expect(over.status, path).toBe(400);
      expect(over.body).toMatchObject({ error: 'BAD_REQUEST', path: 'query.before' });
      const largest = await api.get(`${path}?before=18446744073709551615-18446744073709551615`, TOKENS.viewer.token);
      expect(largest.status, path).toBe(200);
    }
  });
});
