import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackfill } from '../../cli/commands/backfill.js';
import { rebindConnection } from '../../operations/rebind-connection.js';
import { collectStatus } from '../../operations/collect-status.js';
import { waitForDrain } from '../../cli/drain.js';
import { billingCompanyGuardOf } from '../../jobs/admission/billing-company-guard.js';
import { runReconcile } from '../../jobs/reconcile/run-reconcile.js';
import type { Runtime } from '../../jobs/runtime.js';
import type { WorkerService } from '../../app/worker-service.js';
import { billingKeyId } from '../../src/billing/billing-target.js';
import { utcDate } from '../../src/billing/dates.js';
import { until } from '../support/until.js';
import { ACME, GLOBEX, type Harness, HISTORY, startHarness } from '../support/harness.js';

const today = utcDate(Date.now());
const UPSERT = '/external/invoice/upsert';

/**
 * Two billing companies synced by one worker: `zoho-acme` on the default `billing` keys (acme's, the
 * company unnamed: known by its key's fingerprint) and `zoho-globex` on its own (globex's, named).
 * Real Redis, the real billing emulator (which scopes every read and write to the key's company), two
 * Zoho emulators.
 */
describe('billing per connection: two companies, one worker', () => {
  let tc: Harness;
  let workers: WorkerService;
  const ledgerIds = async (rt: Runtime, connection: string) => {
    const ids = new Map<string, string>();
    for await (const batch of rt.ledger.scan(connection, 'invoices'))
      for (const [erpId, e] of batch) ids.set(e.billingId, erpId);
    return ids;
  };

  beforeAll(async () => {
    tc = await startHarness({ name: 'two-companies', companies: 'two', invoices: 30 });
    workers = tc.startWorkers(['pull', 'upsert', 'backfill']);
    await Promise.all(
      [ACME, GLOBEX].map((c) =>
        runBackfill(
          tc.rt,
          { connectionId: c.connection, entities: ['customers', 'invoices'], ...HISTORY },
          { quiet: true },
        ),
      ),
    );
  }, 120_000);
  afterAll(() => tc?.close());

  it("given both connections synced, then each company's billing holds exactly its connection's invoices and customers, each document link attached with its own company's key", async () => {
    for (const [c, other] of [
      [ACME, GLOBEX],
      [GLOBEX, ACME],
    ] as const) {
      const invoices = tc.invoicesOf(c.company);
      const ledger = await ledgerIds(tc.rt, c.connection);
      expect(ledger.size, c.connection).toBeGreaterThan(10);
      expect(new Set(invoices.map((i) => i.input.invoiceId)), c.company).toEqual(new Set(ledger.keys()));
      for (const inv of invoices) {
        expect(inv.originSource).toBe(c.origin);
        expect(inv.input.invoiceId.startsWith(`inv.${other.connection}.`)).toBe(false);
      }
      const buyers = tc.buyersOf(c.company);
      expect(buyers.length, c.company).toBeGreaterThan(0);
      for (const b of buyers) expect(b.startsWith(`cust.${c.connection}.`), `${c.company} holds buyer ${b}`).toBe(true);
      // Zoho gives each invoice a share link: attached through the company's own attachment key.
      expect(invoices.filter((i) => i.attachments.length > 0).length, c.company).toBeGreaterThan(0);
    }
    // Each connection's links went through its own company's attachment key, and none was refused.
    const uploads = tc.billing.journal.list({ path: '/invoice/attachment/upload' });
    expect(uploads.filter((e) => e.status !== 200)).toEqual([]);
    for (const key of [tc.keys.acmeAttach, tc.keys.globexAttach])
      expect(uploads.filter((e) => e.key === key).length).toBeGreaterThan(0);
  });

  it('given both connections synced (source voids mirrored in billing by a person), then a deep reconcile of each finds no drift and checks every invoice of its company', async () => {
    for (const c of [ACME, GLOBEX]) {
      await tc.mirrorSourceVoids(c);
      const r = await runReconcile(tc.rt, { connectionId: c.connection, from: today, to: today, deep: true });
      expect(r.total, `${c.connection}: ${JSON.stringify(r.items.slice(0, 3))}`).toBe(0);
      expect(r.checked.billing).toBe(await tc.rt.ledger.count(c.connection, 'invoices'));
    }
  });

  it('given the two connections, then /metrics has erpsync_connection_info for each with its billing company (a name, or the key fingerprint), and no key anywhere', async () => {
    const text = await tc.rt.metrics.registry.metrics();
    const acmeCompany = `key-${billingKeyId(tc.keys.acme)}`;
    expect(text).toContain(
      `erpsync_connection_info{connection="${ACME.connection}",system="zoho-books",billing_company="${acmeCompany}"} 1`,
    );
    expect(text).toContain(
      `erpsync_connection_info{connection="${GLOBEX.connection}",system="zoho-books",billing_company="globex"} 1`,
    );
    for (const key of Object.values(tc.keys)) expect(text).not.toContain(key);
    const status = await collectStatus(tc.rt);
    expect(status.connections.map((c) => [c.id, c.billingCompany])).toEqual([
      [ACME.connection, { configured: acmeCompany, boundTo: acmeCompany, refused: false }],
      [GLOBEX.connection, { configured: 'globex', boundTo: 'globex', refused: false }],
    ]);
  });

  it("given a named company's key rotated (the same name, another key of it), then the connection goes on: the state stays and the new key is recorded", async () => {
    const rotated = await tc.newRuntime(
      tc.configWith({
        connectionBilling: {
          [GLOBEX.connection]: {
            apiKey: '${GLOBEX_KEY_ROTATED}',
            attachmentKey: '${GLOBEX_ATTACH}',
            baseCurrency: 'INR',
            company: 'globex',
          },
        },
      }),
    );
    await billingCompanyGuardOf(rotated).check(GLOBEX.connection);
    expect(await rotated.billingCompanies.get(GLOBEX.connection)).toMatchObject({
      company: 'globex',
      keyId: billingKeyId(tc.keys.globexRotated),
    });
  });

  it("given globex's connection with state, when its key is changed to acme's, then it is refused (its pulls fail saying why, status shows it, a queued upsert is quarantined) and acme receives nothing; rebind --new-company clears its state and the next pulls sync its history into acme", async () => {
    await workers.stop(5_000);
    const rt2 = await tc.newRuntime(
      tc.configWith({ connectionBilling: { [GLOBEX.connection]: { apiKey: '${ACME_KEY}' } } }),
    );
    const w2 = tc.startWorkers(['pull', 'upsert'], rt2);
    try {
      await refusedThenNewCompany(rt2);
    } finally {
      await w2.stop(5_000);
    }
  }, 90_000);

  async function refusedThenNewCompany(rt2: Runtime): Promise<void> {
    const acmeBefore = tc.invoicesOf(ACME.company).length;
    const acmeCompany = `key-${billingKeyId(tc.keys.acme)}`;

    const pull = await rt2.queues.pull.add(
      'pull',
      { connectionId: GLOBEX.connection, entity: 'invoices' },
      { priority: 1 },
    );
    const failed = await until('the refused pull to fail', async () =>
      (await pull.getState()) === 'failed' ? rt2.queues.pull.getJob(pull.id!) : undefined,
    );
    expect(failed.failedReason).toContain(
      `billing company changed for connection ${GLOBEX.connection}: its sync state was written for billing company "globex", but its billing key is now company "${acmeCompany}"'s`,
    );
    // A record already on its way (an upsert queued before the change) is not written to acme: quarantined, with the reason.
    const done = (await tc.rt.queues.upsert.getJobs(['completed'], 0, -1)).find(
      (j) => j.data.connectionId === GLOBEX.connection && j.data.entity === 'invoices',
    )!;
    await rt2.queues.upsert.add('upsert', done.data, { jobId: `${done.id}-again` });
    const refused = await until('the refused upsert in quarantine', async () =>
      (await rt2.quarantine.list(GLOBEX.connection)).find((q) => q.erpId === done.data.erpId),
    );
    expect(refused).toMatchObject({ reason: 'BILLING_COMPANY_CHANGED', stage: 'upsert' });

    const status = await collectStatus(rt2);
    const globex = status.connections.find((c) => c.id === GLOBEX.connection)!;
    expect(globex.billingCompany).toEqual({ configured: acmeCompany, boundTo: 'globex', refused: true });
    expect(globex.entities.find((e) => e.entity === 'invoices')!.lastError?.message).toContain(
      'billing company changed',
    );
    await expect(billingCompanyGuardOf(rt2).check(GLOBEX.connection)).rejects.toThrow(
      /state rebind --connection zoho-globex --same-company/,
    );
    expect(tc.invoicesOf(ACME.company).length).toBe(acmeBefore);
    expect(tc.invoicesOf(ACME.company).some((i) => i.input.invoiceId.startsWith(`inv.${GLOBEX.connection}.`))).toBe(
      false,
    );
    // The other connection is not held: acme's own connection still syncs.
    const ok = await rt2.queues.pull.add(
      'pull',
      { connectionId: ACME.connection, entity: 'invoices' },
      { priority: 1 },
    );
    await until('acme’s pull to complete', async () => (await ok.getState()) === 'completed');

    const r = await rebindConnection(rt2, GLOBEX.connection, 'new-company');
    expect(r).toMatchObject({ from: 'globex', to: acmeCompany, mode: 'new-company' });
    // The ledger keeps the source's versions and forgets what globex was sent: every record is written again.
    for await (const batch of rt2.ledger.scan(GLOBEX.connection, 'invoices'))
      for (const [, e] of batch) expect([e.hash, e.attachmentUrl, e.fields]).toEqual(['repair', undefined, undefined]);
    expect(await rt2.checkpoints.all(GLOBEX.connection)).toEqual({});
    expect(await rt2.quarantine.list(GLOBEX.connection)).toEqual([]);
    for (const entity of ['customers', 'invoices'])
      await rt2.queues.pull.add('pull', { connectionId: GLOBEX.connection, entity }, { priority: 1 });
    await waitForDrain(rt2, undefined, 60_000);
    const ledger = await ledgerIds(rt2, GLOBEX.connection);
    const inAcme = tc.invoicesOf(ACME.company).filter((i) => i.input.invoiceId.startsWith(`inv.${GLOBEX.connection}.`));
    expect(ledger.size).toBeGreaterThan(10);
    expect(new Set(inAcme.map((i) => i.input.invoiceId))).toEqual(new Set(ledger.keys()));
    expect(inAcme.every((i) => i.originSource === GLOBEX.origin)).toBe(true);
    for await (const batch of rt2.ledger.scan(GLOBEX.connection, 'invoices'))
      for (const [, e] of batch) expect(e.hash).not.toBe('repair');
    expect(inAcme.filter((i) => i.attachments.length > 0).length).toBeGreaterThan(0);
    // Globex keeps what it had: the old company is never written to by a rebind.
    expect(tc.invoicesOf(GLOBEX.company).length).toBe(ledger.size);
  }

  it("given an unnamed company's key rotated (its fingerprint changes), then the connection is refused and its queued upserts quarantined; rebind --same-company keeps the state and writes them with the new key", async () => {
    // A source edit pulled under the old key, its upsert not yet run.
    const [edited] = tc
      .zohoOf(ACME.connection)
      .store.invoices()
      .filter((i) => i.status !== 'void' && i.status !== 'draft');
    tc.zohoOf(ACME.connection).store.editInvoice(edited!.invoice_id);
    const puller = tc.startWorkers(['pull']);
    const pull = await tc.rt.queues.pull.add(
      'pull',
      { connectionId: ACME.connection, entity: 'invoices' },
      { priority: 1 },
    );
    await until('the pull to complete', async () => (await pull.getState()) === 'completed');
    await puller.stop(5_000);
    const ledgerBefore = await tc.rt.ledger.count(ACME.connection, 'invoices');

    const rt3 = await tc.newRuntime(tc.configWith({ billing: { apiKey: '${ACME_KEY_ROTATED}' } }));
    const w3 = tc.startWorkers(['upsert'], rt3);
    try {
      await refusedThenSameCompany(rt3, edited!.invoice_id, ledgerBefore);
    } finally {
      await w3.stop(5_000);
    }
  }, 60_000);

  async function refusedThenSameCompany(rt3: Runtime, erpId: string, ledgerBefore: number): Promise<void> {
    const refused = await until('the upsert refused into quarantine', async () =>
      (await rt3.quarantine.list(ACME.connection)).find(
        (q) => q.erpId === erpId && q.reason === 'BILLING_COMPANY_CHANGED',
      ),
    );
    expect(refused.stage).toBe('upsert');

    const r = await rebindConnection(rt3, ACME.connection, 'same-company');
    expect(r).toMatchObject({ mode: 'same-company', replayed: 1, to: `key-${billingKeyId(tc.keys.acmeRotated)}` });
    await waitForDrain(rt3, undefined, 30_000);
    expect(await rt3.quarantine.list(ACME.connection)).toEqual([]);
    expect(await rt3.ledger.count(ACME.connection, 'invoices')).toBe(ledgerBefore);
    const entry = await rt3.ledger.get(ACME.connection, 'invoices', erpId);
    const written = tc.billing.journal
      .list({ path: UPSERT })
      .filter((e) => e.status === 200 && e.key === tc.keys.acmeRotated);
    expect(written.length).toBe(1);
    expect(
      tc.invoicesOf(ACME.company).find((i) => i.input.invoiceId === entry!.billingId)?.input.metaData,
    ).toMatchObject({ sourceVersion: entry!.version });
  }
});
