import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { chromium } from 'playwright-core';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUES } from '../../jobs/catalog.js';
import { startHttpServer } from '../../src/observability/http-server.js';
import { QUEUE_UI_COOKIE, QUEUE_UI_SESSION_SECONDS, queueUi } from '../../src/observability/queue-ui.js';
import { connect, dropPrefix, TEST_REDIS_URL, testPrefix } from '../support/redis.js';
import { type Harness, REPO_ROOT, startHarness, until } from '../support/harness.js';
import { opsService } from './support/ops-service.js';
import { requireBinary } from './support/require-binary.js';

const TOKEN = 'queue-ui-test-token-0123456789';
const NAMES = ['pull', 'upsert', 'backfill', 'reconcile'];

describe('the queue UI at /admin/queues: routing and the admin token', () => {
  const prefix = testPrefix('queue-ui');
  const queues = NAMES.map((n) => new Queue(n, { connection: { url: TEST_REDIS_URL }, prefix }));
  const servers: Array<{ url: string; close(): Promise<void> }> = [];
  let on: string;
  let off: string;
  /** The UI's clock: tests move it to age a session (never a wait). */
  let clock = Date.parse('2026-03-01T09:00:00Z');
  const serve = async (adminToken?: string, trustedProxies: string[] = []) => {
    const s = await startHttpServer({
      port: 0,
      host: '127.0.0.1',
      registry: new Registry(),
      ready: async () => ({ ok: true, checks: {} }),
      extra: queueUi({ queues, adminToken, trustedProxies: () => trustedProxies, now: () => clock }),
    });
    servers.push(s);
    return s.url;
  };

  beforeAll(async () => {
    await queues[1]!.add('upsert', { n: 1 });
    await queues[1]!.add('upsert', { n: 2 });
    on = await serve(TOKEN);
    off = await serve(undefined);
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await Promise.all(queues.map((q) => q.close()));
    const r = connect();
    await dropPrefix(r, prefix);
    await r.quit();
  });

  it('answers 404 on /admin/queues and below when no admin token is configured (the UI is off)', async () => {
    for (const path of [
      '/admin/queues',
      '/admin/queues/',
      '/admin/queues/api/queues',
      `/admin/queues?token=${TOKEN}`,
    ]) {
      const r = await fetch(`${off}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(r.status, path).toBe(404);
    }
  });

  it('answers 401 with WWW-Authenticate: Bearer without credentials, with a wrong bearer, a wrong ?token or a forged cookie', async () => {
    const cases: Array<[string, RequestInit]> = [
      ['/admin/queues', {}],
      ['/admin/queues/api/queues', {}],
      ['/admin/queues', { headers: { authorization: `Bearer ${TOKEN}x` } }],
      ['/admin/queues', { headers: { authorization: 'Basic Zm9vOmJhcg==' } }],
      ['/admin/queues?token=wrong-token-0123456789', {}],
      ['/admin/queues', { headers: { cookie: `${QUEUE_UI_COOKIE}=${TOKEN}` } }],
      // a right ?token does not rescue a wrong bearer
      [`/admin/queues?token=${TOKEN}`, { headers: { authorization: 'Bearer nope' } }],
    ];
    for (const [path, init] of cases) {
      const r = await fetch(`${on}${path}`, { ...init, redirect: 'manual' });
      expect(r.status, `${path} ${JSON.stringify(init)}`).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(r.headers.get('set-cookie')).toBeNull();
    }
  });

  it('serves Bull Board with Authorization: Bearer <token>, and its API lists our four queues', async () => {
    const page = await fetch(`${on}/admin/queues`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('<base href="/admin/queues/"');
    expect(html).toContain('<title>erp-sync queues</title>');
    const api = await fetch(`${on}/admin/queues/api/queues`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(api.status).toBe(200);
    const body = (await api.json()) as {
      queues: Array<{ name: string; readOnlyMode: boolean; counts: Record<string, number> }>;
    };
    expect(body.queues.map((q) => q.name).sort()).toEqual([...NAMES].sort());
    expect(body.queues.every((q) => q.readOnlyMode)).toBe(true);
    expect(body.queues.find((q) => q.name === 'upsert')!.counts.waiting).toBe(2);
  });

  /** Signs in with ?token= at `url`: the Set-Cookie header and the session value it carries. */
  const signIn = async (url: string, headers: Record<string, string> = {}) => {
    const r = await fetch(`${url}/admin/queues?token=${TOKEN}`, { redirect: 'manual', headers });
    expect(r.status).toBe(303);
    const cookie = r.headers.get('set-cookie')!;
    return { cookie, session: new RegExp(`${QUEUE_UI_COOKIE}=([^;]+)`).exec(cookie)![1]! };
  };
  const withSession = (url: string, session: string) =>
    fetch(`${url}/admin/queues/api/queues`, { headers: { cookie: `other=1; ${QUEUE_UI_COOKIE}=${session}` } });

  it('trades a right ?token for an HttpOnly SameSite=Strict session cookie (never the token, new at each sign-in) and redirects without it', async () => {
    const r = await fetch(`${on}/admin/queues/queue/upsert?status=waiting&token=${TOKEN}`, { redirect: 'manual' });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/admin/queues/queue/upsert?status=waiting');
    const { cookie, session } = await signIn(on);
    expect(cookie).not.toContain(TOKEN);
    expect(cookie).toMatch(/; Path=\/admin\/queues(;|$)/);
    expect(cookie).toMatch(new RegExp(`; Max-Age=${QUEUE_UI_SESSION_SECONDS}(;|$)`));
    expect(cookie).toMatch(/; HttpOnly(;|$)/);
    expect(cookie).toMatch(/; SameSite=Strict(;|$)/);
    expect(cookie).not.toMatch(/Secure/);
    expect((await withSession(on, session)).status).toBe(200);
    // Each sign-in is a session of its own, not a value fixed by the token.
    expect((await signIn(on)).session).not.toBe(session);
  });

  it('given a session cookie, when 12 hours have passed since its sign-in, then it is refused (401) and a new sign-in works', async () => {
    const { session } = await signIn(on);
    clock += (QUEUE_UI_SESSION_SECONDS - 1) * 1000;
    expect((await withSession(on, session)).status).toBe(200);
    clock += 1000;
    expect((await withSession(on, session)).status).toBe(401);
    expect((await withSession(on, (await signIn(on)).session)).status).toBe(200);
    // A session whose issued-at was moved forward does not pass its HMAC.
    const [, id, mac] = session.split('.');
    expect((await withSession(on, `${Math.floor(clock / 1000)}.${id}.${mac}`)).status).toBe(401);
  });

  it('given a session of one admin token, when the token changes, then the session is refused', async () => {
    const other = await serve(`${TOKEN}-rotated`);
    expect((await withSession(other, (await signIn(on)).session)).status).toBe(401);
  });

  it('marks the cookie Secure behind an HTTPS proxy in http.trustedProxies (X-Forwarded-Proto: https), and believes that header from no other peer', async () => {
    const behindProxy = await serve(TOKEN, ['127.0.0.1/32', '::1']);
    expect((await signIn(behindProxy, { 'x-forwarded-proto': 'https' })).cookie).toMatch(/; Secure(;|$)/);
    expect((await signIn(on, { 'x-forwarded-proto': 'https' })).cookie).not.toMatch(/Secure/);
  });

  it('is read-only: an authorised request to empty the upsert queue is refused and the jobs stay', async () => {
    const r = await fetch(`${on}/admin/queues/api/queues/upsert/empty`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(r.status).toBe(405);
    expect(await queues[1]!.getWaitingCount()).toBe(2);
  });

  it('leaves every other route alone: /metrics needs no token, /admin/queuesX is not the UI', async () => {
    expect((await fetch(`${on}/metrics`)).status).toBe(200);
    expect((await fetch(`${on}/admin/queuesX`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    expect(
      (await fetch(`${on}/admin/queues/no-such-page/x.js`, { headers: { authorization: `Bearer ${TOKEN}` } })).status,
    ).toBe(404);
  });
});

describe('the queue UI in headless Chromium, on a running worker', () => {
  // The screenshot goes to a scratch folder, so a test run leaves the tree clean; UPDATE_SCREENSHOTS=1 writes
  // the one docs/ shows.
  const SCREENSHOT =
    process.env.UPDATE_SCREENSHOTS === '1'
      ? join(REPO_ROOT, 'docs/queue-ui.png')
      : join(tmpdir(), `erp-sync-queue-ui-${process.pid}.png`);
  let stack: Harness;

  beforeAll(async () => {
    stack = await startHarness(opsService('queue-ui', { secrets: { adminToken: TOKEN } }));
    await stack.waitForPull('invoices', 40_000);
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('loads with ?token=, lists our queues with their jobs, and takes a full-page screenshot (docs/queue-ui.png with UPDATE_SCREENSHOTS=1)', async () => {
    const executablePath = requireBinary('chromium', 'chromium');
    const browser = await chromium.launch({
      executablePath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const res = await page.goto(`${stack.url}/admin/queues?token=${TOKEN}`, { waitUntil: 'networkidle' });
      expect(res!.status()).toBe(200);
      expect(new URL(page.url()).search).toBe(''); // the token left the address bar
      for (const name of NAMES)
        await page.getByRole('link', { name, exact: true }).first().waitFor({ timeout: 15_000 });
      const text = await page.locator('body').innerText();
      for (const name of NAMES) expect(text).toContain(name);
      expect(errors).toEqual([]);
      // the cookie is HttpOnly: the page's scripts cannot read it
      expect(await page.evaluate('document.cookie')).toBe('');
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
    } finally {
      await browser.close();
    }
    expect(existsSync(SCREENSHOT)).toBe(true);
    expect(statSync(SCREENSHOT).size).toBeGreaterThan(10_000);
  }, 60_000);

  it("lists every queue the worker's runtime has", async () => {
    const api = await fetch(`${stack.url}/admin/queues/api/queues`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(api.status).toBe(200);
    const body = (await api.json()) as { queues: Array<{ name: string }> };
    expect(body.queues.map((q) => q.name).sort()).toEqual(Object.values(QUEUES).sort());
  });

  it('answers 401 to the same page without the token', async () => {
    const r = await until('a 401', async () => (await fetch(`${stack.url}/admin/queues`)).status === 401);
    expect(r).toBe(true);
  });
});
