import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpApi, mountedRoutes } from '../../api/index.js';
import { expressPath } from '../../api/route.js';
import { ACME, type ApiUnderTest, GLOBEX, startApi } from './api-harness.js';

/** Who may do what, bad input, and the OpenAPI document, against a real worker. */
describe('the API: authentication, roles, companies, input, OpenAPI', () => {
  let api: ApiUnderTest;

  const expired = {
    name: 'old-auditor',
    token: `expired-${'e'.repeat(24)}`,
    role: 'viewer',
    expiresAt: '2026-01-01T00:00:00+05:30',
  };
  const later = {
    name: 'new-auditor',
    token: `later-${'l'.repeat(24)}`,
    role: 'viewer',
    expiresAt: '2999-01-01T00:00:00Z',
  };

  beforeAll(async () => {
    api = await startApi('api-access', { tokens: [expired, later] });
  });
  afterAll(() => api?.close());

  it('given no token or a wrong one, when any API path is asked, then 401 with WWW-Authenticate, before the route is even matched', async () => {
    for (const path of ['/connections', '/no-such-route', '/openapi.json']) {
      const none = await api.get(path);
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ error: 'UNAUTHORIZED', message: expect.stringContaining('Authorization: Bearer') });
      expect(none.headers.get('www-authenticate')).toContain('Bearer');
    }
    const wrong = await api.get('/connections', 'x'.repeat(40));
    expect(wrong.status).toBe(401);
    // A POST with a wrong token is refused before its body is read: a body that is not JSON does not matter.
    expect((await api.postRaw(`/connections/${ACME.connection}/pause`, 'x'.repeat(40), '{not json')).status).toBe(401);
  });

  it('given a token past its expiresAt, then 401 as for a token not configured; before it, 200', async () => {
    const old = await api.get('/connections', expired.token);
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ error: 'UNAUTHORIZED', message: 'the token is not one of http.tokens' });
    expect((await api.get('/connections', later.token)).status).toBe(200);
  });

  it('given each role, when it reads, then 200; given http.adminToken, then it is an admin token of the API', async () => {
    for (const t of [api.tokens.viewer, api.tokens.operator, api.tokens.admin])
      expect((await api.get('/connections', t.token)).status).toBe(200);
    const legacy = await api.get<{ connections: Array<{ id: string }> }>('/connections', api.tokens.legacyAdmin);
    expect(legacy.body.connections.map((c) => c.id)).toEqual([ACME.connection, GLOBEX.connection]);
  });

  it('given a viewer, when it POSTs (pause, resume, sync, check, replay), then 403, nothing changes, and the refusal is in the refusals under its name, not in the action log', async () => {
    const viewer = api.tokens.viewer.token;
    for (const path of [
      `/connections/${ACME.connection}/pause`,
      `/connections/${ACME.connection}/resume`,
      `/connections/${ACME.connection}/sync`,
      `/connections/${ACME.connection}/check`,
      '/quarantine/replay',
    ]) {
      const r = await api.post(path, viewer, {});
      expect(r.status, path).toBe(403);
      expect(r.body).toEqual({ error: 'FORBIDDEN', message: expect.stringContaining('needs operator') });
    }
    expect((await api.tc.rt.connectionControl.state(ACME.connection)).state).toBe('running');
    const actions = await api.get<{ entries: Array<Record<string, unknown>> }>('/audit', viewer);
    expect(actions.body.entries.filter((e) => e.who === 'finance-viewer')).toEqual([]);
    const audit = await api.get<{ entries: Array<Record<string, unknown>> }>('/audit/refusals?limit=5', viewer);
    expect(audit.body.entries[0]).toMatchObject({
      who: 'finance-viewer',
      action: 'quarantine.replay-selection',
      outcome: 'refused',
      status: 403,
    });
    expect(audit.body.entries[4]).toMatchObject({ action: 'connections.pause', connection: ACME.connection });
  });

  it("given a token limited to globex, when it names acme's connection, then 404 exactly as for a connection that does not exist, and lists show only globex's", async () => {
    const globex = api.tokens.globex.token;
    const other = await api.get(`/connections/${ACME.connection}`, globex);
    const missing = await api.get('/connections/no-such-connection', globex);
    expect(other.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(other.body).toEqual({ error: 'NOT_FOUND', message: `no connection "${ACME.connection}"` });
    expect(missing.body).toEqual({ error: 'NOT_FOUND', message: 'no connection "no-such-connection"' });
    expect((await api.post(`/connections/${ACME.connection}/pause`, globex, { reason: 'x' })).status).toBe(404);
    expect((await api.get(`/quarantine?connection=${ACME.connection}`, globex)).status).toBe(404);
    expect((await api.get(`/runs?connection=${ACME.connection}`, globex)).status).toBe(404);
    expect((await api.get(`/records/${ACME.connection}/invoices/1`, globex)).status).toBe(404);
    expect((await api.get(`/quarantine/${ACME.connection}/invoices/1`, globex)).status).toBe(404);
    expect((await api.tc.rt.connectionControl.state(ACME.connection)).state).toBe('running');

    const list = await api.get<{ connections: Array<{ id: string; company: string }> }>('/connections', globex);
    expect(list.body.connections.map((c) => [c.id, c.company])).toEqual([[GLOBEX.connection, GLOBEX.company]]);
    const own = await api.get(`/connections/${GLOBEX.connection}`, globex);
    expect(own.status).toBe(200);
    // The audit log it sees holds only its companies' connections (the acme refusal above is not among them).
    const audit = await api.get<{ entries: Array<{ connection?: string }> }>('/audit', globex);
    expect(audit.body.entries.every((e) => e.connection === GLOBEX.connection)).toBe(true);
    // Unlimited tokens see its try on acme's connection, recorded without that connection (it may not see it).
    const all = await api.get<{ entries: Array<{ who: string; outcome: string; connection?: string }> }>(
      '/audit',
      api.tokens.viewer.token,
    );
    const tried = all.body.entries.filter((e) => e.who === 'globex-operator' && e.outcome === 'not-found');
    expect(tried.map((e) => e.connection)).toEqual([undefined]);
  });

  it('given bad input, when it is sent, then 400 in the one error shape with the path of the field at fault', async () => {
    const op = api.tokens.operator.token;
    const cases: Array<[Promise<{ status: number; body: any }>, string]> = [
      [api.get('/quarantine?page=abc', op), 'query.page'],
      [api.get('/quarantine?pageSize=0', op), 'query.pageSize'],
      [api.get('/quarantine?entity=bills', op), 'query.entity'],
      [api.get('/runs?kind=everything', op), 'query.kind'],
      [api.get('/audit?before=yesterday', op), 'query.before'],
      [api.get('/connections/Not_An_Id', op), 'params.id'],
      [api.post(`/connections/${ACME.connection}/pause`, op, { reason: 42 }), 'body.reason'],
      [api.post(`/connections/${ACME.connection}/sync`, op, { entity: 'bills' }), 'body.entity'],
      [api.post('/quarantine/replay', op, { dryRun: true }), 'body.connection'],
      [api.post('/quarantine/replay', op, { connection: ACME.connection, dryRun: 'no' }), 'body.dryRun'],
      [api.postRaw(`/connections/${ACME.connection}/pause`, op, '{"reason": '), 'body'],
    ];
    for (const [answer, path] of cases) {
      const r = await answer;
      expect(r.status, path).toBe(400);
      expect(r.body, path).toEqual({ error: 'BAD_REQUEST', message: expect.stringContaining(path), path });
    }
    // An unknown field is refused too, not ignored.
    const extra = await api.post(`/connections/${ACME.connection}/pause`, op, { reasons: 'typo' });
    expect(extra.status).toBe(400);
    expect(extra.body.message).toContain('reasons');
    expect((await api.tc.rt.connectionControl.state(ACME.connection)).state).toBe('running');
  });

  it('given any answer (200, 400, 401, 403, 404), then it says nosniff and no-store', async () => {
    const viewer = api.tokens.viewer.token;
    for (const answer of [
      await api.get('/connections', viewer),
      await api.get('/quarantine?page=abc', viewer),
      await api.get('/connections'),
      await api.post(`/connections/${ACME.connection}/pause`, viewer, {}),
      await api.get('/<script>alert(1)</script>', viewer),
    ]) {
      expect(answer.headers.get('x-content-type-options'), String(answer.status)).toBe('nosniff');
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('given a path that does not decode or a body in a charset or encoding not read, then 400 or 415 in the one error shape, never 500', async () => {
    const op = api.tokens.operator.token;
    const send = (path: string, headers: Record<string, string>, body?: string) =>
      fetch(`${api.url}/api/v1${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${op}`, ...headers },
        ...(body === undefined ? {} : { body }),
      });
    const badPath = await send(`/records/${ACME.connection}/invoices/%E0%A4%A`, {});
    expect(badPath.status).toBe(400);
    expect(await badPath.json()).toEqual({
      error: 'BAD_REQUEST',
      message: expect.stringContaining('could not be read'),
    });
    const pause = `/connections/${ACME.connection}/pause`;
    const charset = await send(pause, { 'content-type': 'application/json; charset=iso-8859-1' }, '{}');
    expect(charset.status).toBe(415);
    expect(await charset.json()).toMatchObject({ error: 'UNSUPPORTED_MEDIA_TYPE', path: 'body' });
    const encoding = await send(pause, { 'content-type': 'application/json', 'content-encoding': 'x-unknown' }, '{}');
    expect(encoding.status).toBe(415);
    expect((await api.tc.rt.connectionControl.state(ACME.connection)).state).toBe('running');
  });

  it('given the OpenAPI document, then it is valid OpenAPI 3.1, and it lists exactly the routes mounted, each answering', async () => {
    const r = await api.get<any>('/openapi.json', api.tokens.viewer.token);
    expect(r.status).toBe(200);
    const validator = new Validator();
    const result = await validator.validate(r.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');

    const documented = Object.entries(r.body.paths as Record<string, object>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    // What the router serves, read back from it, is what the document lists, and nothing more.
    const mounted = mountedRoutes(httpApi(api.tc.rt));
    expect(mounted.length).toBeGreaterThanOrEqual(14);
    expect(documented.map((d) => expressPath(d)).sort()).toEqual([...mounted].sort());

    // Each documented route is served: no "no route" 404 for any of them (ids that exist nowhere answer their own 404).
    for (const op of documented) {
      const [method, path] = op.split(' ') as ['GET' | 'POST' | 'PATCH' | 'DELETE', string];
      const concrete = path
        .replace('{id}', GLOBEX.connection)
        .replace('{connection}', GLOBEX.connection)
        .replace('{entity}', 'invoices')
        .replace('{erpId}', 'none');
      const viewer = api.tokens.viewer.token;
      const answer =
        method === 'GET'
          ? await api.get(concrete, viewer)
          : method === 'PATCH'
            ? await api.patch(concrete, viewer, {})
            : method === 'DELETE'
              ? await api.delete(concrete, viewer)
              : await api.post(concrete, viewer, {});
      expect(answer.body?.message ?? '', op).not.toMatch(/^no route/);
    }
    // And a route that is not documented is not served.
    const unknown = await api.get('/connections/x/y/z', api.tokens.viewer.token);
    expect(unknown.body).toEqual({ error: 'NOT_FOUND', message: 'no route GET /api/v1/connections/x/y/z' });

    // Requests are described from the same zod schemas: the pause body refuses unknown fields, query numbers are patterned strings.
    const pause = r.body.paths['/connections/{id}/pause'].post;
    expect(pause.requestBody.content['application/json'].schema).toMatchObject({
      type: 'object',
      properties: { reason: { type: 'string', maxLength: 500 } },
      additionalProperties: false,
    });
    const page = r.body.paths['/quarantine'].get.parameters.find((p: { name: string }) => p.name === 'page');
    expect(page).toMatchObject({ in: 'query', required: false, schema: { type: 'string', pattern: '^\\d{1,9}$' } });
    expect(pause['x-role']).toBe('operator');
  });
});
