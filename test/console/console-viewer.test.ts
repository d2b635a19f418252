import { mkdirSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConsoleBrowser, SHOTS } from './support/console-browser.js';
import { until } from '../support/until.js';
import { ACME, type ApiUnderTest, GLOBEX, startApi } from '../api/api-harness.js';

/** A finance viewer limited to globex: reads globex's connections only, acts on nothing. */
const GLOBEX_VIEWER = {
  name: 'globex-finance',
  token: `glv-${randomBytes(12).toString('hex')}`,
  role: 'viewer',
  companies: [GLOBEX.company],
};

/** The billing company's zone: neither the host's (UTC in CI) nor the reader's browser's. */
const COMPANY_ZONE = 'Asia/Kolkata';

describe('the console for a reader: only what the reader may see and do', () => {
  let api: ApiUnderTest;
  let op: string;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  /** Asks for a sync of a connection through the API and waits for its pulls and the records they enqueued. */
  const sync = async (connection: string) => {
    const r = await api.post<{ pulls: Array<{ jobId: string }> }>(`/connections/${connection}/sync`, op);
    expect(r.status).toBe(202);
    for (const p of r.body.pulls)
      await until(`pull ${p.jobId}`, async () => (await api.tc.rt.queues.pull.getJobState(p.jobId)) === 'completed');
    await until(`${connection} in flight drained`, async () => (await api.tc.rt.inFlight.count(connection)) === 0);
  };
  /** Quarantines one invoice of a connection (an amount no document can hold), through a real pull. */
  const quarantineOne = async (connection: string) => {
    const zoho = api.tc.zohoOf(connection).store;
    const bad = zoho.invoices().find((i) => i.status !== 'void' && i.payments.length === 0)!.invoice_id;
    zoho.editInvoice(bad, { lines: [{ index: 0, quantity: 99_999_999, rate: 99_999_999 }] });
    await sync(connection);
    expect(await api.tc.rt.quarantine.get(connection, 'invoices', bad)).toBeDefined();
  };
  const shot = async (name: string) => {
    mkdirSync(SHOTS, { recursive: true });
    const path = join(SHOTS, `${name}.png`);
    await page.screenshot({ path, fullPage: true });
    expect(statSync(path).size).toBeGreaterThan(10_000);
  };
  const signInAs = async (token: string, who: string) => {
    await page.context().clearCookies();
    await page.goto(`${api.url}/console/`);
    await page.locator('#sign-in input[name=token]').fill(token);
    await page.locator('#sign-in button[type=submit]').click();
    await page.locator('#who').getByText(who).waitFor();
  };

  beforeAll(async () => {
    // Three invoices a page: a first sync of the twelve reads four pages, long enough to be watched.
    api = await startApi('console-viewer', {
      tokens: [GLOBEX_VIEWER],
      billing: { timeZone: COMPANY_ZONE },
      harness: { settings: { pageSize: 3 } },
    });
    op = api.tokens.operator.token;
    await quarantineOne(ACME.connection);
    await quarantineOne(GLOBEX.connection);
    ({ browser, page } = await openConsoleBrowser(errors));
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  it('given a viewer, then no page offers an action: no pause, resume, sync, replay, connect or resolve button, and the API still refuses them', async () => {
    await signInAs(api.tokens.viewer.token, 'finance-viewer (viewer)');
    const acme = page.locator(`tr[data-connection="${ACME.connection}"]`);
    await acme.waitFor();
    await page.locator(`tr[data-connection="${GLOBEX.connection}"]`).waitFor();
    expect(await page.locator('#page button').count()).toBe(0);
    await page.goto(`${api.url}/console/#/quarantine`);
    await page.locator('section[data-reason="AMOUNTS_INCONSISTENT"]').waitFor();
    expect(await page.locator('#page button', { hasText: /Replay/ }).count()).toBe(0);
    await page.locator('section[data-reason] tr[data-erp-id] a', { hasText: 'Details' }).first().click();
    await page.locator('#reason').waitFor();
    // Reading the source is a viewer's right (a GET); a replay is not.
    expect(await page.locator('#page button', { hasText: 'Read from the source' }).count()).toBe(1);
    expect(await page.locator('#page button', { hasText: /Replay/ }).count()).toBe(0);
    await page.goto(`${api.url}/console/#/reconciliations`);
    await page.locator('h1', { hasText: 'Reconciliations' }).waitFor();
    expect(await page.locator('#page button').count()).toBe(0);

    // Each connection's freshness is the API's p50 and p99, coloured against the alert's threshold.
    await page.goto(`${api.url}/console/#/connections`);
    await acme.waitFor();
    const { connections } = (await api.get('/connections', api.tokens.viewer.token)).body as {
      connections: Array<{
        id: string;
        freshness: { p50Seconds: number; p99Seconds: number; samples: number; alertAboveSeconds: number };
      }>;
    };
    for (const c of connections) {
      expect(c.freshness.samples).toBeGreaterThan(0);
      const cell = page.locator(`tr[data-connection="${c.id}"] td.freshness`);
      expect(Number(await cell.locator('.p50').getAttribute('data-seconds'))).toBe(c.freshness.p50Seconds);
      expect(Number(await cell.locator('.p99').getAttribute('data-seconds'))).toBe(c.freshness.p99Seconds);
      const verdict = await cell.getAttribute('data-verdict');
      if (c.freshness.p99Seconds <= c.freshness.alertAboveSeconds) expect(verdict).toBe('ok');
      else expect(['slow', 'polled']).toContain(verdict);
    }

    const refused = await api.post(`/connections/${ACME.connection}/pause`, api.tokens.viewer.token, {});
    expect(refused.status).toBe(403);
    expect(errors).toEqual([]);
  });

  it('given a viewer limited to globex, then every list and total holds globex only: connections, quarantine (its count and its filters), runs, audit', async () => {
    await signInAs(GLOBEX_VIEWER.token, `globex-finance (viewer, ${GLOBEX.company} only)`);
    await page.locator(`tr[data-connection="${GLOBEX.connection}"]`).waitFor();
    expect(await page.locator('tr[data-connection]').count()).toBe(1);
    expect(await page.locator('#page').innerText()).not.toContain(ACME.connection);
    await shot('viewer-connections');

    await page.goto(`${api.url}/console/#/quarantine`);
    await page.locator('section[data-reason="AMOUNTS_INCONSISTENT"]').waitFor();
    // Both connections hold one record each: the reader's total is globex's one.
    expect(await page.locator('#page h1').innerText()).toBe('Quarantine — 1 record(s)');
    const options = await page.locator('select[name=connection] option').allInnerTexts();
    expect(options).toEqual(['all', GLOBEX.connection]);
    expect(await page.locator('#page').innerText()).not.toContain(ACME.connection);

    await page.goto(`${api.url}/console/#/runs`);
    await page.locator('h1', { hasText: 'Runs' }).waitFor();
    await page.locator('#page table tbody tr').first().waitFor();
    expect(await page.locator('#page').innerText()).not.toContain(ACME.connection);

    await page.goto(`${api.url}/console/#/audit`);
    await page.locator('#audit').waitFor();
    expect(await page.locator('#page').innerText()).not.toContain(ACME.connection);
    expect(await page.locator('#page button').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('given a reader whose browser asks for German and sits in Los Angeles, then times read in German on the billing company clock (named beside each table), and calendar dates never shift', async () => {
    const context = await browser.newContext({ locale: 'de-DE', timezoneId: 'America/Los_Angeles' });
    const german = await context.newPage();
    german.on('pageerror', (e) => errors.push(e.message));
    try {
      await german.goto(`${api.url}/console/#/runs`);
      await german.locator('#sign-in input[name=token]').fill(api.tokens.viewer.token);
      await german.locator('#sign-in button[type=submit]').click();
      const note = german.locator('.zone-note');
      await note.waitFor();
      expect(await note.getAttribute('data-zone')).toBe(COMPANY_ZONE);
      expect(await note.innerText()).toContain(COMPANY_ZONE);
      const { runs } = (await api.get('/runs?limit=100', api.tokens.viewer.token)).body as {
        runs: Array<{ startedAt: string }>;
      };
      const first = await german.locator('#page table tbody tr td').first().innerText();
      const expected = new Intl.DateTimeFormat('de-DE', {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        second: '2-digit',
        timeZoneName: 'short',
        timeZone: COMPANY_ZONE,
      }).format(new Date(runs[0]!.startedAt));
      expect(first).toBe(expected);
      expect(first).toMatch(/GMT\+5:30/);

      // A calendar date is the same day on any clock: the browser's zone, east or west of UTC, changes nothing.
      const days: string[] = [];
      for (const timezoneId of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
        const c = await browser.newContext({ locale: 'de-DE', timezoneId });
        const p = await c.newPage();
        await p.goto(`${api.url}/console/`);
        days.push(String(await p.evaluate(`import('./assets/ui.js').then((ui) => ui.day('2025-03-01'))`)));
        await c.close();
      }
      expect(days).toEqual(['1. März 2025', '1. März 2025']);
    } finally {
      await context.close();
    }
    expect(errors).toEqual([]);
  });

  it('given a first sync running, then the connections page shows its records read of the total (said to be an estimate), the rate and the time left, as the API answered the page', async () => {
    const { rt } = api.tc;
    const zoho = api.tc.zohoOf(ACME.connection);
    // Nothing else pulls meanwhile: this pull runs alone.
    await until('no pull or backfill running', async () => {
      const pulls = await rt.queues.pull.getJobCounts('active', 'wait', 'prioritized');
      const runs = await rt.queues.backfill.getJobCounts('active', 'wait', 'waiting-children');
      return (
        Object.values({ ...pulls, ...runs }).every((n) => n === 0) && (await rt.inFlight.count(ACME.connection)) === 0
      );
    });
    // The stream as never synced: no checkpoint, no last success.
    await rt.redis.hdel(rt.keys.checkpoint(ACME.connection), 'invoices');
    await rt.redis.hdel(rt.keys.lastSuccess(ACME.connection), 'invoices');
    // Each Zoho call takes 1.5 s (a page is its list and its invoices' details): the figures hold still
    // between pages while the page is read.
    zoho.faults.set({ latencyMs: 1500 });
    try {
      await signInAs(api.tokens.viewer.token, 'finance-viewer (viewer)');
      const started = await api.post<{ pulls: Array<{ jobId: string }> }>(`/connections/${ACME.connection}/sync`, op, {
        entity: 'invoices',
      });
      expect(started.status).toBe(202);
      const jobId = started.body.pulls[0]!.jobId;
      type Running = {
        jobId: string;
        kind: string;
        pulled: number;
        recordsPerSecond: number | null;
        total: { records: number; source: string } | null;
        secondsLeft: number | null;
      };
      const onPage = () =>
        page.locator(`.progress[data-job="${jobId}"]`).evaluate((n) => ({
          pulled: Number(n.querySelector('.pulled')?.getAttribute('data-n')),
          total: Number(n.querySelector('.total')?.getAttribute('data-n')),
          source: n.querySelector('.total')?.getAttribute('data-source') ?? null,
          rate: Number(n.querySelector('.rate')?.getAttribute('data-n')),
          left: Number(n.querySelector('.left')?.getAttribute('data-seconds')),
          bar: Number(n.querySelector('progress.records')?.getAttribute('value')),
          text: n.textContent ?? '',
        }));
      let shown: Awaited<ReturnType<typeof onPage>> | undefined;
      let given: Running | undefined;
      // The page's own answer from the API, and what the page made of it: again until the read is past
      // its count (a total) and before its last page (time left).
      await until(
        'the page shows the first sync the API reported to it',
        async () => {
          const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/connections');
          await page.goto(`${api.url}/console/#/connections?at=${Date.now()}`);
          const { connections } = (await (await answer).json()) as {
            connections: Array<{ id: string; progress: Running[] }>;
          };
          given = connections.find((c) => c.id === ACME.connection)!.progress.find((p) => p.jobId === jobId);
          if (!given?.total || given.secondsLeft === null) return false;
          shown = await onPage();
          return true;
        },
        60_000,
      );
      expect(given!.kind).toBe('first-sync');
      expect(given!.total!.source).toBe('estimate');
      expect(given!.total!.records).toBeGreaterThan(given!.pulled);
      expect(shown).toMatchObject({
        pulled: given!.pulled,
        total: given!.total!.records,
        source: 'estimate',
        rate: given!.recordsPerSecond,
        left: given!.secondsLeft,
        bar: given!.pulled,
      });
      expect(shown!.text).toContain('estimate');
      expect(shown!.text).toMatch(/about .* left/);
      await shot('connections-first-sync');
      expect(errors).toEqual([]);
      await until(`pull ${jobId}`, async () => (await rt.queues.pull.getJobState(jobId)) === 'completed');
    } finally {
      zoho.faults.set({});
    }
  }, 240_000);

  it('given a backfill running, then the connections page shows each running window with the records read, its windows done of all and the time left, as the API has them', async () => {
    const zoho = api.tc.zohoOf(ACME.connection);
    // Each Zoho call takes 5 s: a window's figures hold still while the page and the API are read.
    zoho.faults.set({ latencyMs: 5000 });
    try {
      await api.tc.backfill({ restart: true });
      await signInAs(api.tokens.viewer.token, 'finance-viewer (viewer)');
      type Progress = { jobId: string; kind: string; pulled: number; windows: { done: number; total: number } | null };
      const onPage = async () =>
        page.locator(`tr[data-connection="${ACME.connection}"] .progress`).evaluateAll((nodes) =>
          nodes.map((n) => ({
            jobId: n.getAttribute('data-job'),
            pulled: Number(n.querySelector('.pulled')?.getAttribute('data-n')),
            done: n.querySelector('progress')?.getAttribute('value') ?? null,
            total: n.querySelector('progress')?.getAttribute('max') ?? null,
          })),
        );
      const fromApi = async () => {
        const c = (await api.get(`/connections/${ACME.connection}`, api.tokens.viewer.token)).body as {
          progress: Progress[];
        };
        return c.progress.map((p) => ({
          jobId: p.jobId,
          pulled: p.pulled,
          done: p.windows ? String(p.windows.done) : null,
          total: p.windows ? String(p.windows.total) : null,
        }));
      };
      let shown: Awaited<ReturnType<typeof onPage>> = [];
      // The page and the API are read one after the other: again until both read the same moment of a running window.
      await until('the page shows the backfill the API reports', async () => {
        await page.goto(`${api.url}/console/#/connections?at=${Date.now()}`);
        await page.locator(`tr[data-connection="${ACME.connection}"]`).waitFor();
        shown = await onPage();
        const api1 = await fromApi();
        return (
          shown.length > 0 && shown.some((p) => p.total !== null) && JSON.stringify(shown) === JSON.stringify(api1)
        );
      });
      expect(Number(shown.find((p) => p.total)!.total)).toBeGreaterThan(1);
      expect(await page.locator('.progress progress').count()).toBeGreaterThan(0);
      await shot('connections-progress');
      expect(errors).toEqual([]);
    } finally {
      zoho.faults.set({});
    }
  });

  it('given the runs on record, then the runs page charts the records read per hour over 24 h in plain SVG, adding up to what the API lists', async () => {
    await signInAs(api.tokens.viewer.token, 'finance-viewer (viewer)');
    await page.goto(`${api.url}/console/#/runs`);
    const figure = page.locator('#records-per-hour');
    await figure.waitFor();
    const { runs } = (await api.get('/runs?limit=500', api.tokens.viewer.token)).body as {
      runs: Array<{ kind: string; startedAt: string; counts: Record<string, number> }>;
    };
    const dayAgo = Date.now() - 23 * 3600_000;
    const expected = runs
      .filter((r) => r.kind !== 'reconcile' && Date.parse(r.startedAt) >= dayAgo)
      .reduce((n, r) => n + (r.counts.pulled ?? 0), 0);
    expect(expected).toBeGreaterThan(0);
    expect(Number(await figure.getAttribute('data-total'))).toBe(expected);
    expect(await figure.locator('svg rect.bar').count()).toBe(24);
    const bars = await figure
      .locator('svg rect.bar')
      .evaluateAll((n) => n.map((b) => Number(b.getAttribute('data-value'))));
    expect(bars.reduce((a, b) => a + b, 0)).toBe(expected);
    await shot('runs-trend');
    expect(errors).toEqual([]);
  });

  it('given the sweep sampled each connection, then the trends page charts vendor calls against the quota, freshness p99 and quarantine with the API points, and a viewer limited to globex sees globex only', async () => {
    const { rt } = api.tc;
    // One run of the scheduled sweep, as its scheduler would start it: it samples every connection.
    const job = await rt.queues.sweep.add('sweep', {});
    await until('the sweep ran', async () => (await rt.queues.sweep.getJobState(job.id!)) === 'completed');
    type Trends = {
      id: string;
      calls: {
        peakMinute: Array<number | null>;
        day: Array<number | null>;
        limits: { perMinute: number; perDay: number | null };
      };
      freshness: { p99Seconds: Array<number | null>; alertAboveSeconds: number };
      quarantine: { records: Array<number | null> };
    };
    const { connections } = (await api.get('/trends', api.tokens.viewer.token)).body as { connections: Trends[] };
    await signInAs(api.tokens.viewer.token, 'finance-viewer (viewer)');
    await page.goto(`${api.url}/console/#/trends`);
    await page.locator('section.trends-connection').first().waitFor();
    const chart = (connection: string, id: string) =>
      page.locator(`section[data-connection="${connection}"] figure[data-chart="${id}"]`);
    const bars = async (connection: string, id: string) =>
      (
        await chart(connection, id)
          .locator('svg rect.bar')
          .evaluateAll((n) => n.map((b) => b.getAttribute('data-value')))
      ).map((v) => (v === '' ? null : Number(v)));
    expect(connections.length).toBe(2);
    for (const c of connections) {
      expect(await bars(c.id, 'calls-minute')).toEqual(c.calls.peakMinute);
      expect(await bars(c.id, 'calls-day')).toEqual(c.calls.day);
      expect(await bars(c.id, 'freshness-p99')).toEqual(c.freshness.p99Seconds);
      expect(await bars(c.id, 'quarantine')).toEqual(c.quarantine.records);
      // The samples the sweep just took are points on every chart.
      for (const id of ['calls-minute', 'calls-day', 'freshness-p99', 'quarantine'])
        expect(Number(await chart(c.id, id).getAttribute('data-points')), `${c.id} ${id}`).toBeGreaterThan(0);
      expect(c.quarantine.records.at(-1)).toBe(1);
      expect(Number(await chart(c.id, 'calls-minute').locator('line.limit').getAttribute('data-limit'))).toBe(
        c.calls.limits.perMinute,
      );
      expect(Number(await chart(c.id, 'freshness-p99').locator('line.limit').getAttribute('data-limit'))).toBe(
        c.freshness.alertAboveSeconds,
      );
    }
    await shot('trends');

    await signInAs(GLOBEX_VIEWER.token, `globex-finance (viewer, ${GLOBEX.company} only)`);
    await page.goto(`${api.url}/console/#/trends`);
    await page.locator(`section[data-connection="${GLOBEX.connection}"]`).waitFor();
    expect(await page.locator('section.trends-connection').count()).toBe(1);
    expect(await page.locator('#page').innerText()).not.toContain(ACME.connection);
    expect(errors).toEqual([]);
  });
});
