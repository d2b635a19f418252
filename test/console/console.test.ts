import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConsoleBrowser, SHOTS } from './support/console-browser.js';
import { CONSOLE_COOKIE } from '../../api/auth.js';
import { REPO_ROOT } from '../support/harness.js';
import { until } from '../support/until.js';
import { ACME, type ApiUnderTest, startApi } from '../api/api-harness.js';

/** Signs in over HTTP as the console page does; answers the cookie pair (`name=value`), the CSRF token and the response. */
async function signIn(url: string, token: string, init: { contentType?: string; origin?: string } = {}) {
  const res = await fetch(`${url}/console/session`, {
    method: 'POST',
    headers: {
      'content-type': init.contentType ?? 'application/json',
      ...(init.origin ? { origin: init.origin } : {}),
    },
    body: init.contentType?.startsWith('application/x-www-form') ? `token=${token}` : JSON.stringify({ token }),
  });
  const setCookie = res.headers.get('set-cookie') ?? '';
  const body = res.status === 200 ? ((await res.json()) as { csrf: string; name: string; role: string }) : undefined;
  return { res, setCookie, cookie: setCookie.split(';')[0]!, csrf: body?.csrf ?? '', body };
}

describe('the console at /console, on a running worker', () => {
  let api: ApiUnderTest;
  let op: string;

  /** Asks for a sync of ACME through the API and waits for its pulls and the records they enqueued. */
  const syncAcme = async () => {
    const r = await api.post<{ pulls: Array<{ jobId: string }> }>(`/connections/${ACME.connection}/sync`, op);
    expect(r.status).toBe(202);
    for (const p of r.body.pulls)
      await until(`pull ${p.jobId}`, async () => (await api.tc.rt.queues.pull.getJobState(p.jobId)) === 'completed');
    await until('ACME in flight drained', async () => (await api.tc.rt.inFlight.count(ACME.connection)) === 0);
  };

  beforeAll(async () => {
    api = await startApi('console');
    op = api.tokens.operator.token;
    await syncAcme();
  });
  afterAll(() => api?.close());

  describe('in headless Chromium', () => {
    let browser: Browser;
    let page: Page;
    const errors: string[] = [];
    const shot = async (name: string) => {
      mkdirSync(SHOTS, { recursive: true });
      const path = join(SHOTS, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      expect(statSync(path).size).toBeGreaterThan(10_000);
    };
    /** Clicks a button that opens the confirm dialog, checks what it says it will do, and confirms. */
    const confirmThrough = async (button: ReturnType<Page['locator']>, says: RegExp) => {
      await button.click();
      const dialog = page.locator('dialog#confirm');
      await dialog.waitFor({ state: 'visible' });
      expect(await page.locator('#confirm-text').innerText()).toMatch(says);
      await page.locator('#confirm-ok').click();
      await dialog.waitFor({ state: 'hidden' });
    };

    beforeAll(async () => {
      ({ browser, page } = await openConsoleBrowser(errors));
    });
    afterAll(async () => {
      await browser?.close();
    });

    it('given a token, when an operator signs in, then the session cookie is HttpOnly and SameSite=Strict, holds no token, and the pages scripts cannot read it', async () => {
      await page.goto(`${api.url}/console`);
      expect(new URL(page.url()).pathname).toBe('/console/');
      await page.locator('#sign-in input[name=token]').fill(op);
      await page.locator('#sign-in button[type=submit]').click();
      await page.locator('#who').getByText('ops-operator (operator)').waitFor();
      await page.locator(`tr[data-connection="${ACME.connection}"]`).waitFor();
      const [cookie, ...others] = await page.context().cookies();
      expect(others).toEqual([]);
      expect(cookie).toMatchObject({ name: CONSOLE_COOKIE, httpOnly: true, sameSite: 'Strict', path: '/' });
      expect(cookie!.value).not.toContain(op);
      expect(await page.evaluate('document.cookie')).toBe('');
      await shot('connections');
    });

    it('given an invoice quarantined for a bad source value, when the operator reads why, fixes it in the ERP and replays it, then it leaves quarantine and billing holds the fixed invoice', async () => {
      const zoho = api.tc.zohoOf(ACME.connection).store;
      const bad = zoho.invoices().find((i) => i.status !== 'void' && i.payments.length === 0)!.invoice_id;
      zoho.editInvoice(bad, { lines: [{ index: 0, quantity: 99_999_999, rate: 99_999_999 }] });
      await syncAcme();
      const entry = await api.tc.rt.quarantine.get(ACME.connection, 'invoices', bad);
      expect(entry).toMatchObject({ reason: 'AMOUNTS_INCONSISTENT', stage: 'map' });

      await page.goto(`${api.url}/console/#/quarantine?connection=${ACME.connection}`);
      const group = page.locator('section[data-reason="AMOUNTS_INCONSISTENT"]');
      await group.locator(`tr[data-erp-id="${bad}"]`).waitFor();
      expect(await group.locator('.hint').first().innerText()).toMatch(/^How to fix: ./);
      await shot('quarantine');

      // Zoho's by-id reads of the record: the page reads the source only when asked to.
      const reads = () =>
        api.tc
          .zohoOf(ACME.connection)
          .journal.list()
          .filter((e) => e.path.endsWith(`/invoices/${bad}`)).length;
      const readsBefore = reads();
      await group.locator(`tr[data-erp-id="${bad}"]`).getByRole('link', { name: 'Details, replay' }).click();
      await page.locator('#reason').getByText('AMOUNTS_INCONSISTENT').waitFor();
      expect(await page.locator('#message').innerText()).toBe(entry!.message);
      expect(await page.locator('#source-now').innerText()).toMatch(/^not read/);
      expect(await page.locator('#source-record').innerText()).toBe('');
      expect(reads()).toBe(readsBefore);
      await page.getByRole('button', { name: 'Read from the source' }).click();
      await page
        .locator('#source-now')
        .getByText(/^still cannot be mapped/)
        .waitFor();
      expect(await page.locator('#source-record').innerText()).toContain('The record in the source now');
      expect(reads()).toBe(readsBefore + 1);
      await shot('quarantined-record');

      // A finance person corrects the line in Zoho; read again, the page now says the record maps.
      zoho.editInvoice(bad, { lines: [{ index: 0, quantity: 2, rate: 150 }] });
      await page.reload();
      await page.getByRole('button', { name: 'Read again' }).click();
      await page.locator('#source-now').getByText('maps cleanly now: a replay will sync it').waitFor();
      await confirmThrough(
        page.getByRole('button', { name: 'Replay…' }),
        /^Replay invoices\/\d+ of .*read again from the source/,
      );

      await until('the replayed invoice out of quarantine and in billing', async () => {
        const out = (await api.tc.rt.quarantine.get(ACME.connection, 'invoices', bad)) === undefined;
        return out && (await api.tc.rt.inFlight.count(ACME.connection)) === 0;
      });
      const { problems } = await api.tc.compareWithSource();
      expect(problems.filter((p) => p.startsWith(`${bad}:`))).toEqual([]);
      expect(api.tc.billingInvoices().has(bad)).toBe(true);

      // The replay took the page to the record's lineage as it was then: read it again now.
      expect(new URL(page.url()).hash).toBe(`#/record/${ACME.connection}/invoices/${bad}`);
      await page.reload();
      await page.locator('#quarantine').getByText('not quarantined').waitFor();
      expect(await page.locator('#billing').innerText()).toMatch(/^invoice .+ \(id .+\), written /);
      // Its history, oldest first: written, quarantined for the bad edit, written again after the replay.
      const outcomes = await page
        .locator('#record-history tbody tr')
        .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-outcome')));
      expect(outcomes.indexOf('quarantined')).toBeGreaterThan(outcomes.indexOf('written'));
      expect(outcomes.lastIndexOf('written')).toBeGreaterThan(outcomes.indexOf('quarantined'));
      await shot('record');
    });

    it('given a running connection, when the operator pauses it with a reason and resumes it, then each step says what it will do first and the API shows the state', async () => {
      await page.goto(`${api.url}/console/#/connections`);
      const row = page.locator(`tr[data-connection="${ACME.connection}"]`);
      await row.getByRole('button', { name: 'Pause…' }).click();
      await page.locator('#confirm-extra input[name=reason]').fill('month-end close');
      expect(await page.locator('#confirm-text').innerText()).toMatch(/^Pause .* in every worker: nothing is read/);
      await page.locator('#confirm-ok').click();
      await row.locator('.state-paused').waitFor();
      const paused = await api.get(`/connections/${ACME.connection}`, op);
      expect(paused.body).toMatchObject({ state: 'paused', paused: { by: 'ops-operator', reason: 'month-end close' } });

      await confirmThrough(row.getByRole('button', { name: 'Resume…' }), /^Resume .*: its held jobs are released/);
      await row.locator('.state-running').waitFor();
      expect((await api.get(`/connections/${ACME.connection}`, op)).body.state).toBe('running');
    });

    it('given two records quarantined for one reason, when the operator replays all of that reason, then the dry run count is stated first and both leave quarantine', async () => {
      const ids = api.tc
        .zohoOf(ACME.connection)
        .store.invoices()
        .slice(-2)
        .map((i) => i.invoice_id);
      for (const erpId of ids)
        await api.tc.rt.quarantine.put({
          connection: ACME.connection,
          entity: 'invoices',
          erpId,
          version: '2020-01-01T00:00:00.000Z',
          reason: 'MISSING_FIELD',
          message: 'customer_id is empty',
          field: 'customer_id',
          stage: 'map',
          at: Date.now(),
        });
      await page.goto(`${api.url}/console/#/quarantine`);
      const group = page.locator('section[data-reason="MISSING_FIELD"]');
      await group.getByRole('heading', { name: 'MISSING_FIELD — 2 record(s)' }).waitFor();
      await confirmThrough(
        group.getByRole('button', { name: `Replay all MISSING_FIELD of ${ACME.connection}…` }),
        new RegExp(`^Replay 2 record\\(s\\) of ${ACME.connection} quarantined for MISSING_FIELD: `),
      );
      await page.getByRole('status').getByText('2 record(s) of MISSING_FIELD replayed.').waitFor();
      await until('both out of quarantine', async () => {
        for (const erpId of ids) if (await api.tc.rt.quarantine.get(ACME.connection, 'invoices', erpId)) return false;
        return true;
      });
    });

    it('then the audit log page lists the sign-in, the replays, the pause and the resume under the token name', async () => {
      await page.goto(`${api.url}/console/#/audit`);
      await page.locator('#audit tbody tr').first().waitFor();
      const rows = await page
        .locator('#audit tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(1, 6).map((td) => td.textContent)));
      const mine = rows.filter((r) => r[0] === 'ops-operator');
      const actions = [
        'quarantine.replay-selection',
        'connections.resume',
        'connections.pause',
        'quarantine.replay',
        'console.sign-in',
      ];
      for (const action of actions)
        expect(
          mine.map((r) => r[1]),
          action,
        ).toContain(action);
      expect(mine.find((r) => r[1] === 'connections.pause')![4]).toBe('ok (200)');
      await shot('audit');
      await page.goto(`${api.url}/console/#/runs`);
      await page.locator('table tbody tr').first().waitFor();
      await shot('runs');
      expect(errors).toEqual([]);
    });
  });

  describe('over HTTP', () => {
    it('given a session cookie, when a POST comes without its CSRF token (or with another), then 403 and nothing changes; with it, the same roles as the token', async () => {
      const s = await signIn(api.url, op);
      expect(s.res.status).toBe(200);
      expect(s.setCookie).toMatch(/; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
      expect(s.setCookie).not.toContain(op);
      const pause = (headers: Record<string, string>) =>
        fetch(`${api.url}/api/v1/connections/${ACME.connection}/pause`, {
          method: 'POST',
          headers: { cookie: s.cookie, 'content-type': 'application/json', ...headers },
          body: '{}',
        });
      expect((await pause({})).status).toBe(403);
      expect((await pause({ 'x-csrf-token': 'not-the-token' })).status).toBe(403);
      expect((await api.get(`/connections/${ACME.connection}`, op)).body.state).toBe('running');
      // A cross-site form (urlencoded, no CSRF header) cannot even sign in.
      const form = await signIn(api.url, op, { contentType: 'application/x-www-form-urlencoded' });
      expect([form.res.status, form.setCookie]).toEqual([403, '']);
      const foreign = await signIn(api.url, op, { origin: 'https://evil.example' });
      expect([foreign.res.status, foreign.setCookie]).toEqual([403, '']);

      const read = await fetch(`${api.url}/api/v1/connections`, { headers: { cookie: s.cookie } });
      expect(read.status).toBe(200);
      expect((await pause({ 'x-csrf-token': s.csrf })).status).toBe(200);
      const resume = await fetch(`${api.url}/api/v1/connections/${ACME.connection}/resume`, {
        method: 'POST',
        headers: { cookie: s.cookie, 'x-csrf-token': s.csrf },
      });
      expect(resume.status).toBe(200);
      // A viewer's session may read, not act: the token's role, whichever way it came.
      const v = await signIn(api.url, api.tokens.viewer.token);
      const refused = await fetch(`${api.url}/api/v1/connections/${ACME.connection}/sync`, {
        method: 'POST',
        headers: { cookie: v.cookie, 'x-csrf-token': v.csrf },
      });
      expect(refused.status).toBe(403);
      // Signing out ends the session: the cookie no longer opens the API.
      const out = await fetch(`${api.url}/console/session/end`, {
        method: 'POST',
        headers: { cookie: s.cookie, 'x-csrf-token': s.csrf },
      });
      expect(out.status).toBe(204);
      expect((await fetch(`${api.url}/api/v1/connections`, { headers: { cookie: s.cookie } })).status).toBe(401);
    });

    it('serves its pages with a policy that loads nothing from another origin and the assets from the package', async () => {
      const html = await fetch(`${api.url}/console/`);
      expect(html.status).toBe(200);
      expect(html.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(html.headers.get('x-frame-options')).toBe('DENY');
      const text = await html.text();
      expect(text).not.toMatch(/https?:\/\//);
      for (const asset of ['assets/console.js', 'assets/console.css'])
        expect((await fetch(`${api.url}/console/${asset}`)).status, asset).toBe(200);
      expect((await fetch(`${api.url}/console/assets/nope.js`)).status).toBe(404);
      expect(existsSync(join(REPO_ROOT, 'console/assets/index.html'))).toBe(true);
    });

    it('given ten sign-in attempts from one address in a minute, when an eleventh comes, then 429 with Retry-After, even with a right token', async () => {
      // The limiter counts every attempt per address, this file's earlier sign-ins from loopback included
      // (fewer than ten): wrong tokens answer 401 until the window's eleventh attempt.
      let attempts = 0;
      for (let status = 401; status === 401; attempts++)
        status = (await signIn(api.url, `wrong-${attempts}`)).res.status;
      expect(attempts).toBeLessThanOrEqual(11);
      const limited = await signIn(api.url, op);
      expect(limited.res.status).toBe(429);
      expect(Number(limited.res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.setCookie).toBe('');
    });
  });
});
