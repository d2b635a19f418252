import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_COOKIE } from '../../api/auth.js';
import { ACME, type ApiUnderTest, startApi } from '../api/api-harness.js';
import { openConsoleBrowser } from './support/console-browser.js';
import { startTlsProxy, type TlsProxy } from './support/tls-proxy.js';

/**
 * The whole stack behind a TLS-terminating proxy: Chromium → https proxy (X-Forwarded-Proto: https) →
 * the worker's plain-http port, with `http.publicUrl` the proxy's https address, as docs/api.md asks a
 * deployment to run it.
 */
describe('the console behind a TLS-terminating proxy, in headless Chromium', () => {
  let proxy: TlsProxy;
  let api: ApiUnderTest;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    proxy = await startTlsProxy();
    api = await startApi('console-tls', { http: { publicUrl: proxy.url } });
    proxy.forwardTo(api.url);
    ({ browser, page } = await openConsoleBrowser(errors, { ignoreHTTPSErrors: true }));
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await proxy?.close();
  });

  it('given the console opened at the https publicUrl, when an operator signs in, then the session cookie is Secure and the pages work through the proxy, pausing included', async () => {
    await page.goto(`${proxy.url}/console/`);
    await page.locator('#sign-in input[name=token]').fill(api.tokens.operator.token);
    await page.locator('#sign-in button[type=submit]').click();
    await page.locator('#who').getByText('ops-operator (operator)').waitFor();
    const [cookie, ...others] = await page.context().cookies();
    expect(others).toEqual([]);
    expect(cookie).toMatchObject({ name: CONSOLE_COOKIE, secure: true, httpOnly: true, sameSite: 'Strict' });

    // A state change through the proxy: the cookie and the CSRF header reach the API.
    const row = page.locator(`tr[data-connection="${ACME.connection}"]`);
    await row.getByRole('button', { name: 'Pause…' }).click();
    await page.locator('#confirm-extra input[name=reason]').fill('behind the proxy');
    await page.locator('#confirm-ok').click();
    await row.locator('.state-paused').waitFor();
    const paused = await api.get(`/connections/${ACME.connection}`, api.tokens.operator.token);
    expect(paused.body).toMatchObject({ state: 'paused', paused: { by: 'ops-operator', reason: 'behind the proxy' } });
    expect(errors).toEqual([]);
  });
});
