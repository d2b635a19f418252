import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConsoleBrowser, SHOTS } from './support/console-browser.js';
import { until } from '../support/until.js';
import { ACME, type ApiUnderTest, GLOBEX, startApi } from '../api/api-harness.js';

/**
 * The console's review page on a running worker (pull and upsert workers): acme's connection reviews every
 * record before write (`review: all`). It syncs and billing receives nothing; an operator opens Review,
 * approves one invoice and rejects another with a note; the approved one reaches billing, the audit page
 * lists both decisions. A viewer sees the held records without controls.
 */
describe('the console: review before write', () => {
  let api: ApiUnderTest;
  let browser: Browser;
  let page: Page;
  let approved: string;
  let rejected: string;
  const errors: string[] = [];

  const inBilling = (erpId?: string) =>
    api.tc
      .invoicesOf(ACME.company)
      .filter((i) => i.originSource === ACME.origin && (erpId === undefined || i.input.erpId === erpId));
  const signInAs = async (token: string) => {
    await page.goto(`${api.url}/console`);
    await page.locator('#sign-in input[name=token]').fill(token);
    await page.locator('#sign-in button[type=submit]').click();
    await page.locator('#who').getByText(/\(/).waitFor();
  };
  const confirmThrough = async (button: ReturnType<Page['locator']>, says: RegExp) => {
    await button.click();
    const dialog = page.locator('dialog#confirm');
    await dialog.waitFor({ state: 'visible' });
    expect(await page.locator('#confirm-text').innerText()).toMatch(says);
    await page.locator('#confirm-ok').click();
    await dialog.waitFor({ state: 'hidden' });
  };

  beforeAll(async () => {
    api = await startApi('console-review', { review: { [ACME.connection]: 'all', [GLOBEX.connection]: 'first-sync' } });
    for (const c of [ACME.connection, GLOBEX.connection]) {
      const r = await api.post<{ pulls: Array<{ jobId: string }> }>(
        `/connections/${c}/sync`,
        api.tokens.operator.token,
      );
      for (const p of r.body.pulls)
        await until(`pull ${p.jobId}`, async () => (await api.tc.rt.queues.pull.getJobState(p.jobId)) === 'completed');
      await until(`${c} in flight drained`, async () => (await api.tc.rt.inFlight.count(c)) === 0);
    }
    const held = (await api.tc.rt.review.list(ACME.connection)).filter((e) => e.entity === 'invoices');
    [approved, rejected] = [held[0]!.erpId, held[1]!.erpId];
    ({ browser, page } = await openConsoleBrowser(errors));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  it('given a synced connection under review `all`, when an operator opens Review, then billing has nothing and the page lists the held records by rule with the body that would be sent', async () => {
    expect(inBilling()).toEqual([]);
    const held = (await api.tc.rt.review.list(ACME.connection)).length;
    await signInAs(api.tokens.operator.token);
    await page.locator('header nav a[href="#/review"]').click();
    const acme = page.locator(`section[data-connection="${ACME.connection}"]`);
    await acme.getByText(`Review before write: all. ${held} held.`).waitFor();
    expect(await acme.locator('table.held[data-rule="all"] tbody tr').count()).toBe(held);
    const row = acme.locator(`tr[data-erp-id="${approved}"]`);
    await row.locator('summary').click();
    expect(JSON.parse(await row.locator('pre').innerText())).toMatchObject({
      kind: 'invoice',
      invoice: { erpId: approved },
    });
    expect(await acme.getByRole('button', { name: `Approve all ${held}…` }).count()).toBe(1);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'review.png') });
    expect(statSync(join(SHOTS, 'review.png')).size).toBeGreaterThan(10_000);
  });

  it('when the operator approves one record, then the page says first that it will be written to billing, and billing receives it', async () => {
    const row = page.locator(`tr[data-erp-id="${approved}"]`);
    await confirmThrough(
      row.getByRole('button', { name: 'Approve…' }),
      new RegExp(`^1 record will be written to billing: invoices/${approved} `),
    );
    await page.getByRole('status').getByText(`Approved 1: invoices/${approved} is queued for billing.`).waitFor();
    await until(`${approved} in billing`, async () => inBilling(approved).length === 1);
    expect(await page.locator(`tr[data-erp-id="${approved}"]`).count()).toBe(0);
  });

  it('when the operator rejects another with a note, then it shows as rejected with the note and billing never gets it', async () => {
    const row = page.locator(`tr[data-erp-id="${rejected}"]`);
    await row.locator('input[name=note]').fill('already invoiced by hand');
    await confirmThrough(
      row.getByRole('button', { name: 'Reject…' }),
      new RegExp(`^invoices/${rejected} of ${ACME.connection} will not be written to billing, with the note`),
    );
    await page
      .locator(`tr[data-erp-id="${rejected}"][data-state="rejected"]`)
      .getByText('rejected by ops-operator: already invoiced by hand')
      .waitFor();
    await until('acme in flight drained', async () => (await api.tc.rt.inFlight.count(ACME.connection)) === 0);
    expect(inBilling(rejected)).toEqual([]);
  });

  it('given both decisions, then the audit page lists them under the operator, and the lineage page shows the rejection', async () => {
    await page.locator('header nav a[href="#/audit"]').click();
    const rows = page.locator('#audit tbody tr');
    await rows.first().waitFor();
    const texts = (await rows.allInnerTexts()).filter((t) => t.includes('review.'));
    expect(texts[0]).toMatch(/ops-operator\s+review\.reject/);
    expect(texts[0]).toContain(`rejected 1: invoices/${rejected}: already invoiced by hand`);
    expect(texts[1]).toMatch(/ops-operator\s+review\.approve/);
    expect(texts[1]).toContain(`approved 1: invoices/${approved}`);

    await page.goto(`${api.url}/console/#/record/${ACME.connection}/invoices/${rejected}`);
    await page
      .locator('#review')
      .getByText(/rejected by ops-operator: already invoiced by hand \(held by rule all since /)
      .waitFor();
  });

  it('given a connection whose first sync waits (review first-sync), then the page shows what it adds up to, and approving all says first how many records billing gets and that the first sync is approved', async () => {
    const held = await api.tc.rt.review.list(GLOBEX.connection);
    const invoices = held.filter((e) => e.entity === 'invoices').length;
    expect(invoices).toBeGreaterThan(0);
    await page.locator('header nav a[href="#/review"]').click();
    const globex = page.locator(`section[data-connection="${GLOBEX.connection}"]`);
    const summary = globex.locator('.first-sync-summary');
    await summary.getByText(`${held.length} held: `).waitFor();
    mkdirSync(SHOTS, { recursive: true });
    await summary.screenshot({ path: join(SHOTS, 'review-first-sync.png') });
    expect(statSync(join(SHOTS, 'review-first-sync.png')).size).toBeGreaterThan(10_000);
    const counted = (await summary.locator('table.totals tbody tr td:nth-child(3)').allInnerTexts()).map(Number);
    expect(counted.reduce((a, b) => a + b, 0)).toBe(invoices);
    await confirmThrough(
      globex.getByRole('button', { name: `Approve all ${held.length}…` }),
      new RegExp(
        `^${held.length} records will be written to billing from ${GLOBEX.connection}; its first sync is approved`,
      ),
    );
    await page
      .getByRole('status')
      .getByText(`Approved ${held.length} of ${GLOBEX.connection}: queued for billing. Its first sync is approved.`)
      .waitFor();
    await until(
      'globex invoices in billing',
      async () => api.tc.invoicesOf(GLOBEX.company).filter((i) => i.originSource === GLOBEX.origin).length === invoices,
    );
    expect(await api.tc.rt.review.list(GLOBEX.connection)).toEqual([]);
  });

  it('given a viewer, then the review page shows the held records without approve or reject controls', async () => {
    await page.context().clearCookies();
    await signInAs(api.tokens.viewer.token);
    await page.goto(`${api.url}/console/#/review`);
    await page.locator(`section[data-connection="${ACME.connection}"] table.held`).first().waitFor();
    expect(await page.getByRole('button', { name: /Approve|Reject/ }).count()).toBe(0);
    expect(await page.locator('input[name=note]').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
