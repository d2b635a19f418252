import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuarantineEntry } from '../../src/pipeline/quarantine.js';
import { until } from '../support/until.js';
import { ACME, type ApiUnderTest, GLOBEX, startApi } from './api-harness.js';

/** A map failure of a record the source holds (a replay pulls it again and it syncs), or of any id. */
const mapFailure = (connection: string, erpId: string, over: Partial<QuarantineEntry> = {}): QuarantineEntry => ({
  connection,
  entity: 'invoices',
  erpId,
  version: '2020-01-01T00:00:00.000Z',
  reason: 'MISSING_FIELD',
  message: 'customer_id is empty',
  field: 'customer_id',
  stage: 'map',
  at: Date.now(),
  ...over,
});

/** Every route against a real worker (pull and upsert workers), Redis, billing and two Zoho sandboxes. */
describe('the API routes', () => {
  let api: ApiUnderTest;
  let op: string;
  let viewer: string;

  /** Waits for a sync's pulls, then for the records they enqueued to be written. */
  const synced = async (connection: string, pulls: Array<{ jobId: string }>) => {
    for (const p of pulls)
      await until(`pull ${p.jobId}`, async () => (await api.tc.rt.queues.pull.getJobState(p.jobId)) === 'completed');
    await until(`${connection} in flight drained`, async () => (await api.tc.rt.inFlight.count(connection)) === 0);
  };

  beforeAll(async () => {
    api = await startApi('api-routes');
    op = api.tokens.operator.token;
    viewer = api.tokens.viewer.token;
  });
  afterAll(() => api?.close());

  it('given an operator, when it asks for a sync now, then 202 names the pulls, they run, and the connection shows each entity synced with its lag and quota', async () => {
    const r = await api.post<{ pulls: Array<{ entity: string; jobId: string }>; workers: string }>(
      `/connections/${ACME.connection}/sync`,
      op,
    );
    expect(r.status).toBe(202);
    expect(r.body.pulls.map((p) => p.entity)).toEqual(['customers', 'invoices']);
    expect(r.body.workers).toBe('running');
    await synced(ACME.connection, r.body.pulls);

    const c = await api.get(`/connections/${ACME.connection}`, viewer);
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ id: ACME.connection, system: 'zoho-books', state: 'running', paused: null });
    expect(c.body.entities.map((e: { entity: string }) => e.entity)).toEqual(['customers', 'invoices']);
    for (const e of c.body.entities) {
      expect(e.lastSuccess).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(e.lagSeconds).toBeGreaterThanOrEqual(0);
    }
    expect(c.body.quota.used.minute).toBeGreaterThan(0);
    expect(c.body.freshness).toMatchObject({ samples: expect.any(Number), windowSeconds: 3600 });
    expect(c.body.quota.projection).toMatchObject({
      perDay: { polling: { total: expect.any(Number) } },
      verdict: expect.stringMatching(/^(fits|tight|exceeds)$/),
    });

    // Only that entity, when one is named.
    const one = await api.post(`/connections/${ACME.connection}/sync`, op, { entity: 'invoices' });
    expect(one.body.pulls.map((p: { entity: string }) => p.entity)).toEqual(['invoices']);
    await synced(ACME.connection, one.body.pulls);
  });

  it('given a synced invoice, when its record is asked for, then its lineage (what `explain` prints): source version, job, billing id and number', async () => {
    const inv = api.tc.zohoOf(ACME.connection).store.invoices()[0]!;
    const ledger = (await api.tc.rt.ledger.get(ACME.connection, 'invoices', inv.invoice_id))!;
    const r = await api.get(`/records/${ACME.connection}/invoices/${inv.invoice_id}`, viewer);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      connection: ACME.connection,
      entity: 'invoices',
      erpId: inv.invoice_id,
      source: { version: ledger.version },
      billing: { id: ledger.billingId, contentHash: ledger.hash },
      quarantine: null,
    });
    const never = await api.get(`/records/${ACME.connection}/invoices/999999999`, viewer);
    expect(never.status).toBe(404);
    expect(never.body.message).toContain('never seen');
  });

  it('given the sync, when runs are asked for, then the pulls are listed newest first with their counts; a limited token sees only its companies', async () => {
    const r = await api.get(`/runs?connection=${ACME.connection}&kind=pull&entity=invoices`, viewer);
    expect(r.status).toBe(200);
    expect(r.body.runs.length).toBeGreaterThanOrEqual(2);
    expect(r.body.runs[0]).toMatchObject({
      kind: 'pull',
      connection: ACME.connection,
      entity: 'invoices',
      outcome: 'ok',
    });
    // The first pull of the stream (the scheduler's, at start, or the sync's) read every invoice.
    expect(r.body.runs.some((x: { counts: { pulled: number } }) => x.counts.pulled > 0)).toBe(true);
    const ended = r.body.runs.map((x: { endedAt: string }) => x.endedAt);
    expect([...ended].sort().reverse()).toEqual(ended);
    const limited = await api.get('/runs', api.tokens.globex.token);
    expect(limited.body.runs.every((x: { connection: string }) => x.connection === GLOBEX.connection)).toBe(true);
    const bad = await api.get('/runs?kind=reconcile&entity=invoices', viewer);
    expect(bad.status).toBe(400);
    expect(bad.body.path).toBe('query.entity');
  });

  it('given an operator, when it pauses with a reason, then the connection shows paused by its token name; a sync is refused 409; resume releases it; each is audited', async () => {
    const pause = await api.post(`/connections/${ACME.connection}/pause`, op, { reason: 'month-end close' });
    expect(pause.status).toBe(200);
    expect(pause.body).toMatchObject({
      connection: ACME.connection,
      changed: true,
      pause: { by: 'ops-operator', reason: 'month-end close' },
    });
    expect((await api.tc.rt.connectionControl.state(ACME.connection)).state).toBe('paused');
    const shown = await api.get(`/connections/${ACME.connection}`, viewer);
    expect(shown.body).toMatchObject({ state: 'paused', paused: { by: 'ops-operator', reason: 'month-end close' } });
    expect((await api.post(`/connections/${ACME.connection}/pause`, op)).body.changed).toBe(false);

    const sync = await api.post(`/connections/${ACME.connection}/sync`, op);
    expect(sync.status).toBe(409);
    expect(sync.body).toEqual({ error: 'PAUSED', message: expect.stringContaining('resume it first') });

    const resume = await api.post(`/connections/${ACME.connection}/resume`, op);
    expect(resume.status).toBe(200);
    expect(resume.body).toMatchObject({ connection: ACME.connection, pause: { reason: 'month-end close' } });
    expect(resume.body.pulls.map((p: { entity: string }) => p.entity)).toEqual(['customers', 'invoices']);
    expect((await api.tc.rt.connectionControl.state(ACME.connection)).state).toBe('running');
    await synced(ACME.connection, resume.body.pulls);

    const audit = await api.get('/audit?limit=4', viewer);
    expect(
      audit.body.entries.map((e: Record<string, unknown>) => [e.who, e.action, e.connection, e.outcome, e.status]),
    ).toEqual([
      ['ops-operator', 'connections.resume', ACME.connection, 'ok', 200],
      ['ops-operator', 'connections.sync', ACME.connection, 'conflict', 409],
      ['ops-operator', 'connections.pause', ACME.connection, 'ok', 200],
      ['ops-operator', 'connections.pause', ACME.connection, 'ok', 200],
    ]);
    expect(audit.body.entries[3].detail).toBe('paused: month-end close');
  });

  it('given an operator, when it checks a connection, then every check of `erp-sync check` is answered, all ok against the sandboxes', async () => {
    const r = await api.post(`/connections/${GLOBEX.connection}/check`, api.tokens.globex.token);
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(true);
    expect(r.body.checks.map((c: { check: string }) => c.check)).toContain('billing key');
  });

  it('given quarantined records, when the quarantine is listed, then with filters, paging, counts by reason and their fix hints; one record in full', async () => {
    const invoices = api.tc.zohoOf(ACME.connection).store.invoices();
    await api.tc.rt.quarantine.put(mapFailure(ACME.connection, invoices[1]!.invoice_id, { at: Date.now() - 3000 }));
    await api.tc.rt.quarantine.put(mapFailure(ACME.connection, invoices[2]!.invoice_id, { at: Date.now() - 2000 }));
    await api.tc.rt.quarantine.put({
      ...mapFailure(ACME.connection, 'INV-REFUSED-1', { at: Date.now() - 1000 }),
      reason: 'BILLING_REJECTED',
      message: 'buyer GSTIN invalid',
      field: undefined,
      stage: 'upsert',
      attempts: 1,
      payload: {
        connectionId: ACME.connection,
        entity: 'invoices',
        erpId: 'INV-REFUSED-1',
        body: { invoiceNumber: 'INV-1' },
      },
    });
    await api.tc.rt.quarantine.put(mapFailure(GLOBEX.connection, 'G-1'));

    const all = await api.get('/quarantine', viewer);
    expect(all.body.total).toBe(4);
    const acme = await api.get(`/quarantine?connection=${ACME.connection}`, viewer);
    expect(acme.body.total).toBe(3);
    expect(acme.body.records.map((e: { erpId: string }) => e.erpId)).toEqual([
      'INV-REFUSED-1',
      invoices[2]!.invoice_id,
      invoices[1]!.invoice_id,
    ]);
    expect(acme.body.byReason).toEqual(
      expect.arrayContaining([
        { reason: 'MISSING_FIELD', count: 2, fixHint: expect.stringContaining('fill in the field') },
        { reason: 'BILLING_REJECTED', count: 1, fixHint: expect.stringContaining('billing refused') },
      ]),
    );
    const missing = await api.get(
      `/quarantine?connection=${ACME.connection}&reason=MISSING_FIELD&pageSize=1&page=2`,
      viewer,
    );
    expect(missing.body).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(missing.body.records).toEqual([
      expect.objectContaining({
        erpId: invoices[1]!.invoice_id,
        field: 'customer_id',
        stage: 'map',
        since: expect.any(String),
      }),
    ]);
    const limited = await api.get('/quarantine', api.tokens.globex.token);
    expect(limited.body.records.map((e: { connection: string }) => e.connection)).toEqual([GLOBEX.connection]);

    const one = await api.get(`/quarantine/${ACME.connection}/invoices/INV-REFUSED-1`, viewer);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      reason: 'BILLING_REJECTED',
      message: 'buyer GSTIN invalid',
      stage: 'upsert',
      attempts: 1,
      mapped: { invoiceNumber: 'INV-1' },
      fixHint: expect.any(String),
    });
    expect((await api.get(`/quarantine/${ACME.connection}/invoices/nope`, viewer)).status).toBe(404);

    // The record as the source holds it now, and what the mapper makes of it: here it maps (the entry was seeded).
    const read = await api.get(
      `/quarantine/${ACME.connection}/invoices/${invoices[1]!.invoice_id}?source=true`,
      viewer,
    );
    expect(read.status).toBe(200);
    expect(read.body.source).toMatchObject({
      state: 'found',
      record: { id: invoices[1]!.invoice_id, raw: { invoice_number: invoices[1]!.invoice_number } },
      mapped: { ok: true },
    });
    expect(read.body.source.mapped.value).toBeDefined();
  });

  it('given a selection, when it is replayed, then a dry run counts first, a stale count is refused 409, and the replay brings the records out of quarantine', async () => {
    const body = { connection: ACME.connection, reason: 'MISSING_FIELD' };
    const dry = await api.post('/quarantine/replay', op, body);
    expect(dry.status).toBe(200);
    expect(dry.body).toEqual({ connection: ACME.connection, matched: 2, dryRun: true });

    const stale = await api.post('/quarantine/replay', op, { ...body, dryRun: false, expect: 5 });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toContain('2 record(s) now, not 5');

    const replay = await api.post('/quarantine/replay', op, { ...body, dryRun: false, expect: 2 });
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual({
      connection: ACME.connection,
      matched: 2,
      dryRun: false,
      replay: { replayed: 2, reenqueued: 0, repulled: ['invoices'] },
    });
    // The stream is pulled again from before the records: they read as they are in the source, and leave quarantine.
    await until('the replayed records out of quarantine', async () => {
      const left = await api.get(`/quarantine?connection=${ACME.connection}&reason=MISSING_FIELD`, viewer);
      return left.body.total === 0;
    });
    const audit = await api.get('/audit?limit=3', viewer);
    expect(audit.body.entries.map((e: Record<string, unknown>) => [e.action, e.outcome, e.detail])).toEqual([
      ['quarantine.replay-selection', 'ok', 'replayed 2 record(s) (MISSING_FIELD)'],
      ['quarantine.replay-selection', 'conflict', expect.stringContaining('not 5')],
      ['quarantine.replay-selection', 'ok', 'dry run: 2 record(s)'],
    ]);
  });

  it('given one quarantined record, when it is replayed, then 202 and it leaves quarantine once it synced; the audit entry names the record', async () => {
    const inv = api.tc.zohoOf(GLOBEX.connection).store.invoices()[3]!;
    await api.tc.rt.quarantine.put(mapFailure(GLOBEX.connection, inv.invoice_id));
    const r = await api.post(
      `/quarantine/${GLOBEX.connection}/invoices/${inv.invoice_id}/replay`,
      api.tokens.globex.token,
    );
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ replayed: 1, reenqueued: 0, repulled: ['invoices'] });
    await until(
      'the replayed record synced',
      async () =>
        (await api.tc.rt.quarantine.get(GLOBEX.connection, 'invoices', inv.invoice_id)) === undefined &&
        (await api.tc.rt.ledger.get(GLOBEX.connection, 'invoices', inv.invoice_id)) !== undefined,
    );
    const audit = await api.get('/audit?limit=1', api.tokens.globex.token);
    expect(audit.body.entries[0]).toMatchObject({
      who: 'globex-operator',
      action: 'quarantine.replay',
      connection: GLOBEX.connection,
      record: `invoices/${inv.invoice_id}`,
      outcome: 'ok',
    });
  });

  it('given the audit log, then it pages with `before`, holds token names and never a token, and stays within its bound in Redis', async () => {
    const first = await api.get('/audit?limit=2', viewer);
    const next = await api.get(`/audit?limit=2&before=${first.body.entries[1].id}`, viewer);
    expect(next.body.entries[0].id < first.body.entries[1].id).toBe(true);
    const stream = JSON.stringify(await api.tc.redis.xrange(`${api.tc.prefix}:audit`, '-', '+'));
    for (const t of [api.tokens.admin, api.tokens.operator, api.tokens.viewer, api.tokens.globex])
      expect(stream).not.toContain(t.token);
    expect(stream).toContain('ops-operator');
    expect(await api.tc.redis.xlen(`${api.tc.prefix}:audit`)).toBeLessThanOrEqual(10_000);
  });
});
