import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConsoleBrowser, SHOTS } from './support/console-browser.js';
import type { WorkerService } from '../../app/worker-service.js';
import { utcDate } from '../../src/billing/dates.js';
import { until } from '../support/until.js';
import { ACME, type ApiUnderTest, startApi } from '../api/api-harness.js';

/**
 * The console's reconciliations page on a running worker (pull, upsert and reconcile workers): an
 * operator runs a reconcile from the page, reads the drift by kind, and resolves with a note the drift a
 * person must look at (a live invoice a billing user voided).
 */
describe('the console: reconciliations', () => {
  let api: ApiUnderTest;
  let reconciler: WorkerService;
  let browser: Browser;
  let page: Page;
  let voided: string;
  const errors: string[] = [];
  const today = utcDate(Date.now());

  const signInAs = async (token: string) => {
    await page.goto(`${api.url}/console`);
    await page.locator('#sign-in input[name=token]').fill(token);
    await page.locator('#sign-in button[type=submit]').click();
    await page.locator('#who').getByText(/\(/).waitFor();
  };
  const lastReconcileDone = async () => {
    const jobs = await api.tc.rt.queues.reconcile.getJobs(['completed', 'failed', 'active', 'waiting', 'delayed']);
    const states = await Promise.all(jobs.map((j) => j.getState()));
    if (states.includes('failed')) throw new Error('a reconcile failed');
    return jobs.length > 0 && states.every((s) => s === 'completed');
  };

  beforeAll(async () => {
    api = await startApi('console-reconciliations');
    reconciler = api.tc.startWorkers(['reconcile']);
    const r = await api.post<{ pulls: Array<{ jobId: string }> }>(
      `/connections/${ACME.connection}/sync`,
      api.tokens.operator.token,
    );
    for (const p of r.body.pulls)
      await until(`pull ${p.jobId}`, async () => (await api.tc.rt.queues.pull.getJobState(p.jobId)) === 'completed');
    await until('acme in flight drained', async () => (await api.tc.rt.inFlight.count(ACME.connection)) === 0);
    const live = api.tc
      .zohoOf(ACME.connection)
      .store.invoices()
      .find((i) => i.status !== 'void' && i.status !== 'draft')!;
    voided = live.invoice_id;
    const entry = (await api.tc.rt.ledger.get(ACME.connection, 'invoices', voided))!;
    const res = await fetch(
      `${api.tc.billing.url}/__admin/invoices/${encodeURIComponent(entry.billingId)}/void?company=${ACME.company}`,
      { method: 'POST' },
    );
    expect(res.ok).toBe(true);
    ({ browser, page } = await openConsoleBrowser(errors));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await reconciler?.stop(5_000);
    await api?.close();
  });

  it('given a live invoice voided in billing, when an operator runs a reconcile from the page, then the report shows the drift by kind and the record as needing a person', async () => {
    await signInAs(api.tokens.operator.token);
    await page.goto(`${api.url}/console/#/reconciliations`);
    const acme = page.locator(`section[data-connection="${ACME.connection}"]`);
    await acme.getByText('Never reconciled.').waitFor();
    await acme.locator('input[name=from]').fill(today);
    await acme.locator('input[name=to]').fill(today);
    await acme.getByRole('button', { name: 'Run a reconcile…' }).click();
    expect(await page.locator('#confirm-text').innerText()).toMatch(
      new RegExp(`^Reconcile ${ACME.connection} for invoices dated ${today} to ${today}: billing is compared`),
    );
    await page.locator('#confirm-ok').click();
    await page
      .getByRole('status')
      .getByText(/^Reconcile of zoho-acme queued: job \S+\.$/)
      .waitFor();
    await until('the reconcile ran', lastReconcileDone);

    await page.reload();
    await acme.locator('.drift-counts tr[data-kind="void_in_billing_only"]').waitFor();
    expect(await acme.locator('.drift-counts tr[data-kind="void_in_billing_only"] td').allInnerTexts()).toEqual([
      'void_in_billing_only',
      '1',
      'voided in billing, live in the source',
    ]);
    const row = acme.locator(`.drift-items tr[data-erp-id="${voided}"]`);
    expect(await row.locator('td').nth(1).innerText()).toContain('void_in_billing_only');
    await row.locator('input[name=note]').waitFor();
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'reconciliations.png'), fullPage: true });
    expect(statSync(join(SHOTS, 'reconciliations.png')).size).toBeGreaterThan(10_000);
  });

  it('given that drift, when the operator resolves it with a note, then it moves to "resolved by a person" with the note and the API has the resolution', async () => {
    const acme = page.locator(`section[data-connection="${ACME.connection}"]`);
    const row = acme.locator(`.drift-items tr[data-erp-id="${voided}"]`);
    await row.locator('input[name=note]').fill('customer cancelled; the void in billing stands');
    await row.getByRole('button', { name: 'Resolve…' }).click();
    expect(await page.locator('#confirm-text').innerText()).toMatch(
      new RegExp(`^Resolve invoices/${voided} of ${ACME.connection} \\(void_in_billing_only\\) with the note`),
    );
    await page.locator('#confirm-ok').click();
    await acme
      .locator(`.drift-resolved tr[data-erp-id="${voided}"]`)
      .getByText(/^customer cancelled; the void in billing stands — ops-operator, /)
      .waitFor();
    const r = await api.get(`/reconciliations?connection=${ACME.connection}`, api.tokens.viewer.token);
    expect(r.body.reports[0].resolved).toEqual([
      expect.objectContaining({ erpId: voided, resolved: expect.objectContaining({ by: 'ops-operator' }) }),
    ]);
  });

  it('given a viewer, then the page shows the reports without the run and resolve controls', async () => {
    await page.context().clearCookies();
    await signInAs(api.tokens.viewer.token);
    await page.goto(`${api.url}/console/#/reconciliations`);
    const acme = page.locator(`section[data-connection="${ACME.connection}"]`);
    await acme.locator('.drift-counts').waitFor();
    expect(await page.getByRole('button', { name: /Run a reconcile|Resolve/ }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
