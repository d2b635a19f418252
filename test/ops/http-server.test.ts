import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import express from 'express';
import { Counter, Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListenError } from '../../src/http/listen.js';
import {
  KEEP_ALIVE_MS,
  READY_TIMEOUT_MS,
  type ReadyCheck,
  startHttpServer,
} from '../../src/observability/http-server.js';
import { occupyPort } from '../support/cli.js';
import { REPO_ROOT } from '../support/repo-paths.js';

describe('the worker HTTP server: /metrics, /healthz, /readyz, /runbook and nothing else', () => {
  const registry = new Registry();
  new Counter({ name: 'erpsync_http_test_total', help: 'a counter for this test', registers: [registry] });
  let collected = 0;
  let ready: () => Promise<ReadyCheck> = async () => ({ ok: true, checks: { redis: { ok: true } } });
  let server: Awaited<ReturnType<typeof startHttpServer>>;

  beforeAll(async () => {
    server = await startHttpServer({
      port: 0,
      host: '127.0.0.1',
      registry,
      collect: async () => {
        collected += 1;
      },
      ready: () => ready(),
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("serves /metrics with prom-client's own content type, collecting first", async () => {
    const before = collected;
    const r = await fetch(`${server.url}/metrics`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe(registry.contentType);
    expect(await r.text()).toContain('erpsync_http_test_total 0');
    expect(collected).toBe(before + 1);
  });

  it('given an idle kept-alive connection, then the server keeps it open 65 s (past the 60 s of common proxies) and says so, so a client reusing it never meets a close it did not expect', async () => {
    const r = await fetch(`${server.url}/healthz`);
    await r.text();
    expect(r.headers.get('keep-alive')).toBe(`timeout=${KEEP_ALIVE_MS / 1000}`);
    expect(KEEP_ALIVE_MS).toBeGreaterThan(60_000);
    expect(server.server.headersTimeout).toBeGreaterThan(server.server.keepAliveTimeout);
  });

  it('answers /healthz with {"ok":true}', async () => {
    const r = await fetch(`${server.url}/healthz`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await r.json()).toEqual({ ok: true });
  });

  it('answers /readyz 200 when ready, 503 with the checks when not, and 503 naming the error when the check throws', async () => {
    ready = async () => ({ ok: true, checks: { redis: { ok: true } } });
    let r = await fetch(`${server.url}/readyz`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ ok: true, checks: { redis: { ok: true } } });

    ready = async () => ({ ok: false, checks: { redis: { ok: true }, workers: { ok: false, detail: 'starting' } } });
    r = await fetch(`${server.url}/readyz`);
    expect(r.status).toBe(503);
    expect(await r.json()).toEqual({
      ok: false,
      checks: { redis: { ok: true }, workers: { ok: false, detail: 'starting' } },
    });

    ready = async () => {
      throw new Error('redis gone');
    };
    r = await fetch(`${server.url}/readyz`);
    expect(r.status).toBe(503);
    expect(await r.json()).toEqual({ ok: false, checks: { ready: { ok: false, detail: 'redis gone' } } });
  });

  it('given checks that never answer, when /readyz is probed, then it answers 503 within the probe timeout (1 s) saying so', async () => {
    ready = () => new Promise(() => {});
    const started = Date.now();
    const r = await fetch(`${server.url}/readyz`, { signal: AbortSignal.timeout(5_000) });
    const ms = Date.now() - started;
    expect(r.status).toBe(503);
    expect(await r.json()).toEqual({
      ok: false,
      checks: { ready: { ok: false, detail: `readiness checks: no answer within ${READY_TIMEOUT_MS} ms` } },
    });
    expect(ms).toBeGreaterThanOrEqual(READY_TIMEOUT_MS);
    expect(ms).toBeLessThan(1_000);
  });

  it('serves the operations guide at /runbook as HTML, with an anchor for every alert the rules link to', async () => {
    const r = await fetch(`${server.url}/runbook`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await r.text();
    const rules = readFileSync(join(REPO_ROOT, 'ops/prometheus/rules/erp-sync.rules.yml'), 'utf8');
    const alerts = [...rules.matchAll(/^\s+- alert: (\w+)$/gm)].map((m) => m[1]!);
    expect(alerts.length).toBeGreaterThan(15);
    for (const alert of alerts) expect(html, alert).toContain(`<h3 id="${alert.toLowerCase()}">${alert}</h3>`);
    // Text is escaped, never markup: the guide's shell examples hold < and >.
    expect(html).not.toMatch(/<(?!\/?(?:h[1-6]|pre|html|head|meta|title|style|body)\b|!doctype)/);
  });

  it('answers 404 with a JSON error for any other path or method, and matches paths exactly', async () => {
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/nope?x=1'],
      ['GET', '/metrics/'],
      ['GET', '/METRICS'],
      ['GET', '/Healthz'],
      ['POST', '/metrics'],
      ['DELETE', '/readyz'],
    ] as const) {
      const r = await fetch(`${server.url}${path}`, { method });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(await r.json()).toEqual({ error: 'NOT_FOUND', message: `no route ${method} ${path.split('?')[0]}` });
    }
  });

  it("given routes outside the API (the console's sign-in reads JSON up to 4 KB), when a body is malformed or too large, then 400 or 413 in our words; when a route fails, then 500 without its message, logged", async () => {
    const extra = express.Router();
    extra.post('/console/session', express.json({ limit: '4kb' }), (_req, res) => void res.json({ ok: true }));
    extra.get('/boom', () => {
      throw new Error('connect ECONNREFUSED redis-internal:6379');
    });
    const logged: object[] = [];
    const s = await startHttpServer({
      port: 0,
      host: '127.0.0.1',
      registry,
      ready,
      extra,
      logger: { error: (obj) => void logged.push(obj) },
    });
    try {
      const post = (body: string, type = 'application/json') =>
        fetch(`${s.url}/console/session`, { method: 'POST', headers: { 'content-type': type }, body });
      const malformed = await post('{"token": "abc');
      expect(malformed.status).toBe(400);
      expect(await malformed.json()).toEqual({ error: 'BAD_REQUEST', message: 'the body is not valid JSON' });
      const large = await post(JSON.stringify({ token: 'x'.repeat(5000) }));
      expect(large.status).toBe(413);
      expect(await large.json()).toEqual({ error: 'TOO_LARGE', message: 'the body is too large' });
      const charset = await post('{}', 'application/json; charset=iso-8859-1');
      expect(charset.status).toBe(415);
      expect((await post('{"token":"abc"}')).status).toBe(200);
      const failed = await fetch(`${s.url}/boom`);
      expect(failed.status).toBe(500);
      const text = await failed.text();
      expect(JSON.parse(text)).toEqual({ error: 'INTERNAL', message: 'internal error (see the worker log)' });
      expect(text).not.toContain('redis-internal');
      expect(logged).toHaveLength(1);
    } finally {
      await s.close();
    }
  });

  it('rejects with a ListenError naming the port when the port is in use', async () => {
    const busy = await occupyPort();
    try {
      const e = await startHttpServer({ port: busy.port, host: '127.0.0.1', registry, ready }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(ListenError);
      expect((e as ListenError).reason).toBe('in-use');
      expect((e as ListenError).message).toBe(`port ${busy.port} is already in use on 127.0.0.1`);
    } finally {
      await busy.close();
    }
  });
});
