import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS_PER_CONNECTION, CHECKS_WINDOW_SECONDS } from '../../api/connections.js';
import { SOURCE_READS_PER_CALLER, SOURCE_READS_WINDOW_SECONDS } from '../../operations/show-source-record.js';
import { until } from '../support/until.js';
import { ACME, type ApiUnderTest, startApi } from './api-harness.js';

/**
 * What reading a quarantined record from the source costs the vendor quota: a read is kept a few minutes and
 * shared, each caller causes a bounded number of reads, and a connection's checks are bounded. Counted in
 * the Zoho emulator's request journal (real worker, real Redis, the emulator on loopback).
 */
describe('reading quarantined records from the source, and checks, against the vendor quota', () => {
  let api: ApiUnderTest;
  let erpId: string;
  const zoho = () => api.tc.zohoOf(ACME.connection);
  /** Zoho's by-id reads of the record so far (GET …/invoices/<id>). */
  const byIdReads = () =>
    zoho()
      .journal.list()
      .filter((e) => e.path.endsWith(`/invoices/${erpId}`)).length;
  const ask = (how: 'true' | 'fresh', token = api.tokens.viewer.token) =>
    api.get(`/quarantine/${ACME.connection}/invoices/${erpId}?source=${how}`, token);

  beforeAll(async () => {
    api = await startApi('quarantine-source');
    // Paused, and its pulls ended: nothing but the requests below reads Zoho (a pull reads invoices by id too).
    expect((await api.post(`/connections/${ACME.connection}/pause`, api.tokens.operator.token)).status).toBe(200);
    await until('no pull running', async () => (await api.tc.rt.queues.pull.getActiveCount()) === 0);
    erpId = zoho().store.invoices()[1]!.invoice_id;
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
  });
  afterAll(() => api?.close());

  it('given a quarantined invoice, when a viewer asks for it with source=true ten times, then Zoho is read once, and every answer shows the record and when it was read', async () => {
    const before = byIdReads();
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await ask('true'));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(byIdReads() - before).toBe(1);
    const [first, ...later] = answers.map((a) => a.body.source);
    expect(first).toMatchObject({ state: 'found', record: { id: erpId }, mapped: { ok: true }, cached: false });
    expect(first.readAt).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    for (const s of later) expect(s).toEqual({ ...first, cached: true });
  });

  it(`given that viewer, when it asks for fresh reads, then each reads Zoho, up to ${SOURCE_READS_PER_CALLER} a minute; beyond, 429 with Retry-After, while cached reads and other callers still get answers`, async () => {
    const before = byIdReads();
    // The viewer caused one read above: the rest of its window's reads.
    for (let i = 1; i < SOURCE_READS_PER_CALLER; i++) {
      const r = await ask('fresh');
      expect(r.status).toBe(200);
      expect(r.body.source.cached).toBe(false);
    }
    expect(byIdReads()).toBe(before + SOURCE_READS_PER_CALLER - 1);

    const refused = await ask('fresh');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'TOO_MANY_REQUESTS', message: expect.stringContaining('too often') });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(SOURCE_READS_WINDOW_SECONDS);
    expect(byIdReads()).toBe(before + SOURCE_READS_PER_CALLER - 1);

    // The kept read still answers that viewer; another caller has a limit of its own.
    expect((await ask('true')).body.source.cached).toBe(true);
    expect((await ask('fresh', api.tokens.operator.token)).status).toBe(200);
    expect(byIdReads()).toBe(before + SOURCE_READS_PER_CALLER);
  });

  it(`given a connection, when it is checked ${CHECKS_PER_CONNECTION} times through the API, then the next check is 429 with Retry-After and costs Zoho nothing`, async () => {
    for (let i = 0; i < CHECKS_PER_CONNECTION; i++) {
      const by = i % 2 ? api.tokens.operator.token : api.tokens.admin.token; // whoever asks: the limit is the connection's
      expect((await api.post(`/connections/${ACME.connection}/check`, by)).status).toBe(200);
    }
    const calls = zoho().journal.list().length;
    const refused = await api.post(`/connections/${ACME.connection}/check`, api.tokens.operator.token);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(new RegExp(`checked ${CHECKS_PER_CONNECTION} times`));
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(CHECKS_WINDOW_SECONDS);
    expect(zoho().journal.list().length).toBe(calls);
  });
});
