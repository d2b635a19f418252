import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerService } from '../../app/worker-service.js';
import { utcDate } from '../../src/billing/dates.js';
import { until } from '../support/until.js';
import { ACME, type ApiUnderTest, GLOBEX, startApi } from './api-harness.js';

interface Drifted {
  entity: string;
  erpId: string;
  kinds: string[];
  needsPerson: boolean;
  lineage: string;
  resolved?: { by: string; at: string; note: string };
}
interface Report {
  connection: string;
  lastRun: { from: string; to: string; counts: Record<string, number> } | null;
  items: Drifted[];
  resolved: Drifted[];
}

/**
 * Reconciliations and record search against a real worker (pull, upsert and reconcile workers), Redis,
 * billing and two Zoho sandboxes: a live invoice a billing user voids is drift a person must look at.
 */
describe('the API: reconciliations and record search', () => {
  let api: ApiUnderTest;
  let reconciler: WorkerService;
  let op: string;
  let viewer: string;
  let voided: { erpId: string; billingId: string; number: string };
  const today = utcDate(Date.now());

  const syncAcme = async (entity?: string) => {
    const r = await api.post<{ pulls: Array<{ jobId: string }> }>(
      `/connections/${ACME.connection}/sync`,
      op,
      entity ? { entity } : {},
    );
    expect(r.status).toBe(202);
    for (const p of r.body.pulls)
      await until(`pull ${p.jobId}`, async () => (await api.tc.rt.queues.pull.getJobState(p.jobId)) === 'completed');
    await until('acme in flight drained', async () => (await api.tc.rt.inFlight.count(ACME.connection)) === 0);
  };
  /** POST /reconciliations of today, then the reconcile worker's run of it. */
  const reconcileToday = async () => {
    const r = await api.post<{ jobId: string }>('/reconciliations', op, {
      connection: ACME.connection,
      from: today,
      to: today,
    });
    expect(r.status).toBe(202);
    await until(`reconcile ${r.body.jobId}`, async () => {
      const state = await api.tc.rt.queues.reconcile.getJobState(r.body.jobId);
      if (state === 'failed') throw new Error((await api.tc.rt.queues.reconcile.getJob(r.body.jobId))?.failedReason);
      return state === 'completed';
    });
    return r.body.jobId;
  };
  const report = async (): Promise<Report> => {
    const r = await api.get<{ reports: Report[] }>(`/reconciliations?connection=${ACME.connection}`, viewer);
    expect(r.status).toBe(200);
    return r.body.reports[0]!;
  };

  beforeAll(async () => {
    api = await startApi('api-reconciliations');
    op = api.tokens.operator.token;
    viewer = api.tokens.viewer.token;
    reconciler = api.tc.startWorkers(['reconcile']);
    await syncAcme();
    const live = api.tc
      .zohoOf(ACME.connection)
      .store.invoices()
      .find((i) => i.status !== 'void' && i.status !== 'draft')!;
    const entry = (await api.tc.rt.ledger.get(ACME.connection, 'invoices', live.invoice_id))!;
    voided = { erpId: live.invoice_id, billingId: entry.billingId, number: entry.number! };
    const res = await fetch(
      `${api.tc.billing.url}/__admin/invoices/${encodeURIComponent(entry.billingId)}/void?company=${ACME.company}`,
      { method: 'POST' },
    );
    expect(res.ok).toBe(true);
  }, 90_000);
  afterAll(async () => {
    await reconciler?.stop(5_000);
    await api?.close();
  });

  it('given a live invoice voided in billing, when an operator runs a reconciliation, then 202 with the job id, and the report lists it as void_in_billing_only, needing a person, with its lineage link', async () => {
    const jobId = await reconcileToday();
    const job = await api.tc.rt.queues.reconcile.getJob(jobId);
    expect(job?.data).toEqual({ connectionId: ACME.connection, from: today, to: today, deep: false, repair: false });

    const r = await report();
    expect(r.lastRun).toMatchObject({ from: today, to: today, counts: { void_in_billing_only: 1 } });
    const item = r.items.find((i) => i.erpId === voided.erpId);
    expect(item).toMatchObject({
      entity: 'invoices',
      kinds: ['void_in_billing_only'],
      needsPerson: true,
      lineage: `/api/v1/records/${ACME.connection}/invoices/${voided.erpId}`,
    });
    expect((await api.get(item!.lineage.replace('/api/v1', ''), viewer)).status).toBe(200);
    expect((await api.get('/audit?limit=1', viewer)).body.entries[0]).toMatchObject({
      who: 'ops-operator',
      action: 'reconciliations.run',
      connection: ACME.connection,
      outcome: 'ok',
      status: 202,
    });
  }, 60_000);

  it('given that drift, when an operator resolves it with a note, then later reconciliations do not report it, until the record changes in the source', async () => {
    const path = `/reconciliations/${ACME.connection}/items/invoices/${voided.erpId}/resolve`;
    expect((await api.post(path, viewer, { note: 'voided on purpose' })).status).toBe(403);
    const r = await api.post(path, op, { note: 'customer cancelled; the void in billing stands' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      kinds: ['void_in_billing_only'],
      resolution: { by: 'ops-operator', note: 'customer cancelled; the void in billing stands' },
    });
    expect((await api.get('/audit?limit=1', viewer)).body.entries[0]).toMatchObject({
      action: 'reconciliations.resolve',
      connection: ACME.connection,
      record: `invoices/${voided.erpId}`,
      outcome: 'ok',
    });

    await reconcileToday();
    const after = await report();
    expect(after.lastRun?.counts.void_in_billing_only).toBe(1);
    expect(after.items.map((i) => i.erpId)).not.toContain(voided.erpId);
    expect(after.resolved).toEqual([
      expect.objectContaining({ erpId: voided.erpId, resolved: expect.objectContaining({ by: 'ops-operator' }) }),
    ]);

    // The record changes in the source and is synced: the resolution was about the version before.
    const before = (await api.tc.rt.ledger.get(ACME.connection, 'invoices', voided.erpId))!.version;
    api.tc.zohoOf(ACME.connection).store.editInvoice(voided.erpId);
    await syncAcme('invoices');
    expect((await api.tc.rt.ledger.get(ACME.connection, 'invoices', voided.erpId))!.version > before).toBe(true);
    await reconcileToday();
    const back = await report();
    expect(back.items.find((i) => i.erpId === voided.erpId)).toMatchObject({ kinds: ['void_in_billing_only'] });
    expect(back.resolved).toEqual([]);
  }, 90_000);

  it('given drift a sync fixes, or none, when it is resolved, then 409 or 404, and nothing is written', async () => {
    const other = api.tc
      .zohoOf(ACME.connection)
      .store.invoices()
      .find((i) => i.invoice_id !== voided.erpId)!;
    const none = await api.post(`/reconciliations/${ACME.connection}/items/invoices/${other.invoice_id}/resolve`, op, {
      note: 'n',
    });
    expect(none.status).toBe(404);
    await api.tc.rt.reconcileState.recordVerdicts(ACME.connection, 'invoices', [
      [other.invoice_id, { at: new Date().toISOString(), window: `${today}..${today}`, verdict: 'field_mismatch' }],
    ]);
    const fixable = await api.post(
      `/reconciliations/${ACME.connection}/items/invoices/${other.invoice_id}/resolve`,
      op,
      { note: 'n' },
    );
    expect(fixable.status).toBe(409);
    expect(fixable.body.message).toContain('repair');
    expect((await report()).resolved.map((i) => i.erpId)).not.toContain(other.invoice_id);
  });

  it('given bad input, then 400 naming the field; given a token limited to globex, then 404 for acme as for no connection', async () => {
    const bad: Array<[Promise<{ status: number; body: any }>, string]> = [
      [api.post('/reconciliations', op, { connection: ACME.connection, from: today }), 'body.to'],
      [api.post('/reconciliations', op, { connection: ACME.connection, from: '2026-13', to: today }), 'body.from'],
      [api.post('/reconciliations', op, { connection: ACME.connection, lastDays: 0 }), 'body.lastDays'],
      // Days that are not on any calendar are refused at the request, not by billing when the job runs.
      [api.post('/reconciliations', op, { connection: ACME.connection, from: '2026-13-45', to: today }), 'body.from'],
      [
        api.post('/reconciliations', op, { connection: ACME.connection, from: '2026-02-01', to: '2026-02-30' }),
        'body.to',
      ],
      // At most 366 days per request (a whole history is `erp-sync reconcile --history`).
      [
        api.post('/reconciliations', op, { connection: ACME.connection, from: '0001-01-01', to: '9999-12-31' }),
        'body.to',
      ],
      [
        api.post('/reconciliations', op, { connection: ACME.connection, from: '2025-01-01', to: '2026-01-02' }),
        'body.to',
      ],
      [api.post('/reconciliations', op, { connection: ACME.connection, lastDays: 2, depth: true }), 'body'],
      [api.post(`/reconciliations/${ACME.connection}/items/invoices/1/resolve`, op, { note: ' ' }), 'body.note'],
      [api.post(`/reconciliations/${ACME.connection}/items/bills/1/resolve`, op, { note: 'x' }), 'params.entity'],
      [api.get(`/reconciliations?limit=0`, viewer), 'query.limit'],
      [api.get(`/records?connection=${ACME.connection}`, viewer), 'query.number'],
      [api.get(`/records?number=1&billingId=2`, viewer), 'query.number'],
    ];
    for (const [call, path] of bad) {
      const r = await call;
      expect(r.status, path).toBe(400);
      expect(r.body).toMatchObject({ error: 'BAD_REQUEST', path });
    }
    expect((await api.post('/reconciliations', viewer, { connection: ACME.connection, lastDays: 2 })).status).toBe(403);

    const globex = api.tokens.globex.token;
    for (const call of [
      api.get(`/reconciliations?connection=${ACME.connection}`, globex),
      api.post('/reconciliations', globex, { connection: ACME.connection, lastDays: 2 }),
      api.post(`/reconciliations/${ACME.connection}/items/invoices/${voided.erpId}/resolve`, globex, { note: 'x' }),
      api.get(`/records?connection=${ACME.connection}&number=${voided.number}`, globex),
    ]) {
      const r = await call;
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'NOT_FOUND', message: `no connection "${ACME.connection}"` });
    }
    const all = await api.get<{ reports: Report[] }>('/reconciliations', globex);
    expect(all.body.reports.map((r) => r.connection)).toEqual([GLOBEX.connection]);
    // Without a connection, a search covers only the connections the token sees.
    const search = await api.get(`/records?billingId=${voided.billingId}`, globex);
    expect(search.body.matches).toEqual([]);
  });

  it('given synced records, when searched by ERP document number or billing id, then the matches with their lineage link', async () => {
    const byNumber = await api.get(
      `/records?connection=${ACME.connection}&number=${encodeURIComponent(voided.number)}`,
      viewer,
    );
    expect(byNumber.status).toBe(200);
    expect(byNumber.body).toMatchObject({ complete: true });
    expect(byNumber.body.scanned).toBeGreaterThan(0);
    expect(byNumber.body.matches).toEqual([
      expect.objectContaining({
        connection: ACME.connection,
        entity: 'invoices',
        erpId: voided.erpId,
        number: voided.number,
        billingId: voided.billingId,
        lineage: `/api/v1/records/${ACME.connection}/invoices/${voided.erpId}`,
      }),
    ]);
    const byBillingId = await api.get(`/records?billingId=${encodeURIComponent(voided.billingId)}`, viewer);
    expect(byBillingId.body.matches.map((m: { erpId: string }) => m.erpId)).toEqual([voided.erpId]);
    const nothing = await api.get(`/records?number=NO-SUCH-NUMBER`, viewer);
    expect(nothing.body).toMatchObject({ matches: [], complete: true });
  });
});
