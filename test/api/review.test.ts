import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectStatus } from '../../operations/collect-status.js';
import { until } from '../support/until.js';
import { ACME, type ApiUnderTest, GLOBEX, startApi } from './api-harness.js';

/**
 * The review queue over the API, against a real worker (pull and upsert workers), Redis, billing and two
 * Zoho sandboxes: acme's connection reviews every record before write (`review: all`), globex's none.
 */
describe('the API: review before write', () => {
  let api: ApiUnderTest;
  let op: string;
  let viewer: string;
  let invoices: string[];

  /** acme's invoices in billing with this ERP id. */
  const inBilling = (erpId: string) =>
    api.tc.invoicesOf(ACME.company).filter((i) => i.originSource === ACME.origin && i.input.erpId === erpId);

  beforeAll(async () => {
    api = await startApi('api-review', { review: { [ACME.connection]: 'all' } });
    op = api.tokens.operator.token;
    viewer = api.tokens.viewer.token;
    const r = await api.post<{ pulls: Array<{ jobId: string }> }>(`/connections/${ACME.connection}/sync`, op);
    for (const p of r.body.pulls)
      await until(`pull ${p.jobId}`, async () => (await api.tc.rt.queues.pull.getJobState(p.jobId)) === 'completed');
    await until('acme in flight drained', async () => (await api.tc.rt.inFlight.count(ACME.connection)) === 0);
    invoices = (await api.tc.rt.review.list(ACME.connection))
      .filter((e) => e.entity === 'invoices')
      .map((e) => e.erpId);
  }, 120_000);
  afterAll(() => api?.close());

  it('given a synced connection under review `all`, when a viewer lists the review queue, then every record is held by rule `all` with the body that would be sent, money as text, and billing has none of them', async () => {
    expect(invoices.length).toBeGreaterThan(2);
    const r = await api.get(`/review?pageSize=500`, viewer);
    expect(r.status).toBe(200);
    const held = await api.tc.rt.review.list(ACME.connection);
    expect(r.body.connections).toEqual([
      { id: ACME.connection, review: 'all', held: { all: held.length } },
      { id: GLOBEX.connection, review: 'none', held: {} },
    ]);
    expect(r.body.total).toBe(held.length);
    const inv = r.body.records.find((x: { entity: string }) => x.entity === 'invoices');
    expect(inv).toMatchObject({
      connection: ACME.connection,
      rule: 'all',
      state: 'held',
      since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      number: expect.any(String),
      total: expect.stringMatching(/^-?\d+(\.\d+)?$/),
      currency: expect.any(String),
      body: { kind: 'invoice', invoice: { erpId: inv.erpId } },
    });
    expect(api.tc.invoicesOf(ACME.company).filter((i) => i.originSource === ACME.origin)).toEqual([]);

    const page2 = await api.get(`/review?connection=${ACME.connection}&pageSize=2&page=2`, viewer);
    expect(page2.body.records.map((x: { erpId: string }) => x.erpId)).toEqual(held.slice(2, 4).map((e) => e.erpId));
    expect((await api.get('/review?rule=first-sync', viewer)).body.total).toBe(0);
    const bad = await api.get('/review?page=0', viewer);
    expect(bad.status).toBe(400);
    expect(bad.body.path).toBe('query.page');
    expect((await api.get(`/review?connection=${ACME.connection}`, api.tokens.globex.token)).status).toBe(404);
    const own = await api.get('/review', api.tokens.globex.token);
    expect(own.body.connections.map((c: { id: string }) => c.id)).toEqual([GLOBEX.connection]);
  });

  it("when one held record is asked for, then it is shown in full; a record not held, another company's connection or a bad entity are refused", async () => {
    const r = await api.get(`/review/${ACME.connection}/invoices/${invoices[0]}`, viewer);
    expect(r.status).toBe(200);
    const e = (await api.tc.rt.review.get(ACME.connection, 'invoices', invoices[0]!))!;
    expect(r.body).toMatchObject({
      erpId: invoices[0],
      version: e.version,
      hash: e.hash,
      rule: 'all',
      body: (e.payload as { body: unknown }).body,
    });
    expect((await api.get(`/review/${ACME.connection}/invoices/nope`, viewer)).status).toBe(404);
    expect((await api.get(`/review/${ACME.connection}/invoices/${invoices[0]}`, api.tokens.globex.token)).status).toBe(
      404,
    );
    const bad = await api.get(`/review/${ACME.connection}/orders/${invoices[0]}`, viewer);
    expect(bad.status).toBe(400);
    expect(bad.body.path).toBe('params.entity');
  });

  it('when the summary is asked for, then it counts the held records by entity and totals them per currency as exact text', async () => {
    const r = await api.get(`/review/${ACME.connection}/summary?largest=3`, viewer);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ connection: ACME.connection, review: 'all' });
    expect(r.body.byEntity.invoices).toBe(invoices.length);
    expect(r.body.totals.reduce((n: number, t: { count: number }) => n + t.count, 0)).toBe(invoices.length);
    for (const t of r.body.totals) expect(t.total).toMatch(/^-?\d+(\.\d+)?$/);
    expect(r.body.largest.length).toBe(3);
    expect(Array.isArray(r.body.customersToCreate)).toBe(true);
    expect((await api.get(`/review/${ACME.connection}/summary`, api.tokens.globex.token)).status).toBe(404);
  });

  it('given the status, then held records are counted per connection by rule', async () => {
    const s = await collectStatus(api.service.rt);
    const held = (await api.tc.rt.review.list(ACME.connection)).length;
    expect(s.connections.find((c) => c.id === ACME.connection)!.review).toEqual({ mode: 'all', held: { all: held } });
    expect(s.connections.find((c) => c.id === GLOBEX.connection)!.review).toBeNull();
  });

  it("given a viewer, another company's token or bad input, when it approves or rejects, then 403, 404 or 400 with the path, and nothing is written", async () => {
    const path = `/review/${ACME.connection}/approve`;
    const refused = await api.post(path, viewer, { erpIds: [invoices[0]] });
    expect(refused.status).toBe(403);
    expect(
      (await api.post(`/review/${ACME.connection}/reject`, viewer, { erpIds: [invoices[0]], note: 'x' })).status,
    ).toBe(403);
    expect((await api.post(path, api.tokens.globex.token, { erpIds: [invoices[0]] })).status).toBe(404);
    expect(
      (
        await api.post(`/review/${ACME.connection}/reject`, api.tokens.globex.token, {
          erpIds: [invoices[0]],
          note: 'x',
        })
      ).status,
    ).toBe(404);
    for (const [body, at] of [
      [{}, 'body.erpIds'],
      [{ erpIds: [] }, 'body.erpIds'],
      [{ erpIds: [invoices[0]], all: true }, 'body.erpIds'],
      [{ all: false }, 'body.all'],
      [{ erpIds: [invoices[0]], force: true }, 'body'],
    ] as const) {
      const r = await api.post(path, op, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.path, JSON.stringify(body)).toBe(at);
    }
    expect((await api.tc.rt.review.list(ACME.connection)).every((e) => e.state === 'held')).toBe(true);
    const audit = await api.get('/audit?limit=1', viewer);
    expect(audit.body.entries[0]).toMatchObject({ action: 'review.approve', outcome: 'invalid', status: 400 });
  });

  it('when an operator approves one record, then billing gets it exactly once, approving it again is 404, and the audit entry names the token', async () => {
    const id = invoices[0]!;
    const r = await api.post(`/review/${ACME.connection}/approve`, op, { entity: 'invoices', erpIds: [id] });
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ connection: ACME.connection, approved: 1, notHeld: 0, firstSyncApproved: false });
    await until(`${id} in billing`, async () => inBilling(id).length > 0);
    await until('acme in flight drained', async () => (await api.tc.rt.inFlight.count(ACME.connection)) === 0);
    const again = await api.post(`/review/${ACME.connection}/approve`, op, { erpIds: [id] });
    expect(again.status).toBe(404);

    expect(inBilling(id)).toHaveLength(1);
    const jobs = (await api.tc.upsertJobs(['completed', 'failed', 'wait', 'active', 'delayed', 'prioritized'])).filter(
      (j) => j.data.erpId === id && j.data.approvedBy,
    );
    expect(jobs.map((j) => j.data.approvedBy)).toEqual(['ops-operator']);
    expect(await api.tc.rt.review.get(ACME.connection, 'invoices', id)).toBeUndefined();
    // The rest stay held.
    expect(inBilling(invoices[1]!)).toEqual([]);

    const audit = await api.get('/audit?limit=2', viewer);
    expect(audit.body.entries.map((e: Record<string, unknown>) => [e.who, e.action, e.outcome, e.status])).toEqual([
      ['ops-operator', 'review.approve', 'not-found', 404],
      ['ops-operator', 'review.approve', 'ok', 202],
    ]);
    expect(audit.body.entries[1]).toMatchObject({ connection: ACME.connection, detail: `approved 1: invoices/${id}` });
  });

  it('when an operator rejects a record, then a note is required; with one it is rejected, never written, and its lineage shows the rejection', async () => {
    const id = invoices[1]!;
    const path = `/review/${ACME.connection}/reject`;
    for (const body of [{ erpIds: [id] }, { erpIds: [id], note: '   ' }]) {
      const r = await api.post(path, op, body);
      expect(r.status).toBe(400);
      expect(r.body.path).toBe('body.note');
    }
    const r = await api.post(path, op, { erpIds: [id], note: 'duplicate of a manual invoice' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ connection: ACME.connection, rejected: 1, notHeld: 0 });
    const shown = await api.get(`/review/${ACME.connection}/invoices/${id}`, viewer);
    expect(shown.body).toMatchObject({
      state: 'rejected',
      rejected: { by: 'ops-operator', note: 'duplicate of a manual invoice' },
    });
    expect((await api.post(path, op, { erpIds: [id], note: 'again' })).status).toBe(404);
    const lineage = await api.get(`/records/${ACME.connection}/invoices/${id}`, viewer);
    expect(lineage.body.review).toMatchObject({
      state: 'rejected',
      rule: 'all',
      note: 'duplicate of a manual invoice',
    });
    expect(inBilling(id)).toEqual([]);
    const audit = await api.get('/audit?limit=2', viewer);
    expect(audit.body.entries[1]).toMatchObject({
      who: 'ops-operator',
      action: 'review.reject',
      outcome: 'ok',
      status: 200,
      detail: `rejected 1: invoices/${id}: duplicate of a manual invoice`,
    });
  });
});
