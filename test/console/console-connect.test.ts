import { randomBytes } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConsoleBrowser, SHOTS } from './support/console-browser.js';
import {
  AUSTRALIA_TENANT_ID,
  DEFAULT_TENANTS,
  INDIA_TENANT_ID,
  startXeroEmulator,
  XERO_SANDBOX_DEFAULTS,
} from '../../sandbox/xero/index.js';
import { TOKEN_KEY_ENV } from '../../src/auth/token-sealer.js';
import { freePort } from '../../src/http/free-port.js';
import { until } from '../support/until.js';
import { type ApiUnderTest, startApi } from '../api/api-harness.js';

/**
 * Connecting a connection from the console: an admin starts the vendor's OAuth consent, a real headless
 * Chromium clicks Allow on the Xero sandbox's consent page, the sandbox redirects to the console's own
 * callback (`http.publicUrl` + /console/oauth/callback), and the console finishes it through the API:
 * asking which tenant when the grant reaches two, storing the tokens sealed as `erp-sync connect` does.
 */
const XERO = 'xero-in';

async function signIn(url: string, token: string) {
  const res = await fetch(`${url}/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  const body = (await res.json()) as { csrf: string };
  return { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]!, csrf: body.csrf };
}

const postAs = (url: string, s: { cookie: string; csrf: string }, path: string, body: unknown = {}) =>
  fetch(`${url}/api/v1${path}`, {
    method: 'POST',
    headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe("the console's connect, against the Xero sandbox", () => {
  let api: ApiUnderTest;
  let xero: Awaited<ReturnType<typeof startXeroEmulator>>;
  let browser: Browser;
  let page: Page;
  let publicUrl: string;
  const keyBefore = process.env[TOKEN_KEY_ENV];
  const errors: string[] = [];

  const state = async () => (await api.get(`/connections/${XERO}`, api.tokens.viewer.token)).body.state as string;
  /** The token hash's fields as Redis holds them. */
  const storedTokens = async () => {
    const keys = await api.tc.rt.redis.keys(`${api.config.redis.prefix}:token:*${XERO}*`);
    expect(keys).toHaveLength(1);
    return api.tc.rt.redis.hgetall(keys[0]!);
  };

  /** From the connections page: the button, its confirm, then Xero's consent page (ticking only `tenants` when given) and Allow. */
  const consentFrom = async (button: string, tenants?: string[], answer: 'Allow' | 'Deny' = 'Allow') => {
    await page.goto(`${api.url}/console/#/connections`);
    const row = page.locator(`tr[data-connection="${XERO}"]`);
    await row.getByRole('button', { name: button }).click();
    expect(await page.locator('#confirm-text').innerText()).toMatch(
      new RegExp(`^${button.replace('…', '')} ${XERO} at xero: your browser goes to xero's consent page`),
    );
    await Promise.all([
      page.waitForURL((u) => u.origin === new URL(xero.url).origin),
      page.locator('#confirm-ok').click(),
    ]);
    if (tenants)
      for (const box of await page.locator('input[name=organisation]').all())
        if (!tenants.includes((await box.getAttribute('value'))!)) await box.uncheck();
    await Promise.all([
      page.waitForURL((u) => u.href.startsWith(`${publicUrl}/console/#/oauth-callback`)),
      page.getByRole('button', { name: answer }).click(),
    ]);
  };

  beforeAll(async () => {
    process.env[TOKEN_KEY_ENV] = randomBytes(32).toString('base64');
    xero = await startXeroEmulator({ port: 0, seed: 5, records: 5, contacts: 5, creditNotes: 0 });
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    const d = XERO_SANDBOX_DEFAULTS;
    api = await startApi('console-connect', {
      httpPort: port,
      // The worker behind a proxy on loopback: sign-ins are counted per address X-Forwarded-For names.
      http: { publicUrl, trustedProxies: ['127.0.0.1'] },
      harness: {
        extraConnections: [
          {
            id: XERO,
            system: 'xero',
            originSource: 'EXTERNAL_SYSTEM_C',
            entities: ['invoices'],
            schedule: { everySeconds: 3600 },
            settleDelaySeconds: 0,
            rateBudget: { perMinute: 1_000_000, concurrency: 4 },
            // A refresh token Xero no longer honours: the first pull meets the refusal.
            settings: {
              clientId: d.clientId,
              clientSecret: d.clientSecret,
              baseUrl: `${xero.url}/api.xro/2.0`,
              tenantId: INDIA_TENANT_ID,
              refreshToken: 'a-refresh-token-xero-revoked',
            },
          },
        ],
      },
    });
    ({ browser, page } = await openConsoleBrowser(errors));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await xero?.close();
    if (keyBefore === undefined) delete process.env[TOKEN_KEY_ENV];
    else process.env[TOKEN_KEY_ENV] = keyBefore;
  });

  it('given a connection whose refresh token Xero refused, when an admin re-authorises it from the console and the grant reaches two tenants, then the console asks which (none preselected) and stores the tokens sealed for the one chosen', async () => {
    const sync = await api.post(`/connections/${XERO}/sync`, api.tokens.operator.token);
    expect(sync.status).toBe(202);
    await until('Xero refused the refresh token', async () => (await state()) === 'reauthorise');

    await page.goto(`${api.url}/console`);
    await page.locator('#sign-in input[name=token]').fill(api.tokens.admin.token);
    await page.locator('#sign-in button[type=submit]').click();
    const row = page.locator(`tr[data-connection="${XERO}"]`);
    await row.locator('.state-reauthorise').getByText('re-authorise').waitFor();

    await consentFrom('Re-authorise…');
    // Both tenants were ticked: the console lists them and waits for a choice; nothing is stored yet.
    const form = page.locator('#choose-organisation');
    await form.waitFor();
    const radios = form.locator('input[type=radio]');
    expect(
      await radios.evaluateAll((rs) =>
        rs.map((r) => [r.getAttribute('value'), (r as unknown as { checked: boolean }).checked]),
      ),
    ).toEqual([
      [INDIA_TENANT_ID, false],
      [AUSTRALIA_TENANT_ID, false],
    ]);
    expect(await form.innerText()).toContain(
      `${DEFAULT_TENANTS[0]!.tenantName} (${INDIA_TENANT_ID}) — the one the config names`,
    );
    expect(new URL(page.url()).hash).toBe('#/oauth-callback');
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'connect-choose.png'), fullPage: true });
    expect(statSync(join(SHOTS, 'connect-choose.png')).size).toBeGreaterThan(10_000);
    expect(xero.tokens.liveRefreshTokens).toHaveLength(1);
    expect(await state()).toBe('reauthorise');

    await form.locator(`input[value="${INDIA_TENANT_ID}"]`).check();
    await form.getByRole('button', { name: 'Connect this organisation' }).click();
    await page.locator('#organisation').getByText(`${DEFAULT_TENANTS[0]!.tenantName} (${INDIA_TENANT_ID})`).waitFor();
    expect(await page.locator('#tokens').innerText()).toMatch(
      new RegExp(`^stored under ${XERO}, sealed under key \\S+, replacing the ones before$`),
    );

    // Sealed at rest: no field of the hash holds the live refresh token.
    const live = xero.tokens.liveRefreshTokens.at(-1)!;
    const fields = await storedTokens();
    expect(fields.refreshToken).toMatch(/^sealed:v1:/);
    expect(Object.values(fields).join(' ')).not.toContain(live);
    expect(await state()).toBe('running');

    // The tokens work: a sync of the connection reads Xero with them.
    const again = await api.post<{ pulls: Array<{ jobId: string }> }>(
      `/connections/${XERO}/sync`,
      api.tokens.operator.token,
    );
    for (const p of again.body.pulls)
      await until(`pull ${p.jobId}`, async () => (await api.tc.rt.queues.pull.getJobState(p.jobId)) === 'completed');
  });

  it('given consent denied at Xero, then the console says so and nothing changes; given a grant of one tenant, then the tokens are stored at once, replacing the ones before; the audit log names the admin and the connection for each', async () => {
    const before = (await storedTokens()).refreshToken;
    // Denied at Xero first: the console says so and nothing changes.
    await consentFrom('Connect…', undefined, 'Deny');
    await page
      .locator('#refused')
      .getByText('consent was denied at the vendor (access_denied); nothing stored')
      .waitFor();
    expect((await storedTokens()).refreshToken).toBe(before);

    await consentFrom('Connect…', [INDIA_TENANT_ID]);
    await page.locator('#organisation').getByText(`(${INDIA_TENANT_ID})`).waitFor();
    expect((await storedTokens()).refreshToken).not.toBe(before);
    const { entries } = (await api.get(`/audit?connection=${XERO}&limit=20`, api.tokens.admin.token)).body;
    const actions = entries
      .filter((e: { who: string }) => e.who === 'ops-admin')
      .map((e: { action: string; outcome: string }) => `${e.action} ${e.outcome}`);
    expect(actions.slice(0, 4)).toEqual([
      'connections.authorize ok',
      'connections.authorize-start ok',
      'connections.authorize refused',
      'connections.authorize-start ok',
    ]);
    expect(errors).toEqual([]);
  });

  it('given an operator or a viewer, then the console shows them no connect button and the API refuses them; a bearer token and a state of another session are refused too', async () => {
    const operator = await browser.newPage();
    await operator.goto(`${api.url}/console`);
    await operator.locator('#sign-in input[name=token]').fill(api.tokens.operator.token);
    await operator.locator('#sign-in button[type=submit]').click();
    const row = operator.locator(`tr[data-connection="${XERO}"]`);
    await row.getByRole('button', { name: 'Sync now…' }).waitFor();
    expect(await row.getByRole('button', { name: /Connect|Re-authorise/ }).count()).toBe(0);
    await operator.close();

    for (const who of [api.tokens.operator, api.tokens.viewer]) {
      const s = await signIn(api.url, who.token);
      const r = await postAs(api.url, s, `/connections/${XERO}/authorize`);
      expect(r.status, who.name).toBe(403);
    }
    const bearer = await api.post(`/connections/${XERO}/authorize`, api.tokens.admin.token);
    expect([bearer.status, bearer.body.message]).toEqual([403, expect.stringMatching(/console session/)]);

    // A state started by one admin session does not finish in another; nor does a made-up one.
    const a = await signIn(api.url, api.tokens.admin.token);
    const b = await signIn(api.url, api.tokens.legacyAdmin);
    const started = (await (await postAs(api.url, a, `/connections/${XERO}/authorize`)).json()) as {
      authorizeUrl: string;
      redirectUri: string;
    };
    expect(started.redirectUri).toBe(`${publicUrl}/console/oauth/callback`);
    const stateOf = new URL(started.authorizeUrl).searchParams.get('state')!;
    const other = await postAs(api.url, b, '/authorizations/callback', { query: `code=x&state=${stateOf}` });
    expect([other.status, ((await other.json()) as { message: string }).message]).toEqual([
      403,
      expect.stringMatching(/another console session/),
    ]);
    const forged = await postAs(api.url, a, '/authorizations/callback', { query: 'code=x&state=made-up' });
    expect(forged.status).toBe(403);
  });
  it('given http.trustedProxies naming the proxy, when one client behind it spends its sign-in attempts, then that client gets 429 and another client behind the same proxy still signs in', async () => {
    const attempt = (client: string, token: string) =>
      fetch(`${api.url}/console/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `${client}, 127.0.0.1` },
        body: JSON.stringify({ token }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await attempt('203.0.113.7', `wrong-${i}`)).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
    expect((await attempt('203.0.113.7', api.tokens.viewer.token)).status).toBe(429);
    expect((await attempt('198.51.100.20', api.tokens.viewer.token)).status).toBe(200);
    const { entries } = (await api.get('/audit?limit=50', api.tokens.admin.token)).body;
    expect(entries.find((e: { action: string }) => e.action === 'console.sign-in')?.detail).toBe('from 198.51.100.20');
  });
});
