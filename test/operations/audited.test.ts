import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/pipeline/audit-log.js';
import type { QuarantineEntry } from '../../src/pipeline/quarantine.js';
import { ACME, type ApiUnderTest, startApi } from '../api/api-harness.js';
import { runCli } from '../support/cli.js';

/** A map failure of a record the source does not hold: a replay pulls again and it stays, for the next caller. */
const mapFailure = (erpId: string): QuarantineEntry => ({
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

/** An entry as both front ends must write it: everything but its id, time and HTTP status. */
const comparable = ({ id: _i, at: _a, status: _s, ...e }: AuditEntry) => e;

/**
 * Every state-changing action is written to the audit log by one wrapper (operations/audited.ts), whoever
 * takes it: the same action through the API and through the command line gives the same entry (who,
 * action, connection, record, outcome, detail); only the status differs (the HTTP status; 0 from the
 * command line). One real worker (API, pull and upsert workers), the built CLI on its config, real Redis.
 */
describe('an audited action, from the API and from the command line', () => {
  let api: ApiUnderTest;
  let configFile: string;
  const id = ACME.connection;
  const newest = async (): Promise<AuditEntry> => (await api.tc.rt.audit.list({ limit: 1 }))[0]!;
  /** The CLI as the API's operator token's owner (`who` is $USER at the command line). */
  const cli = (args: string[]) =>
    runCli([...args, '--config', configFile], { env: { ...api.tc.secretEnv, USER: api.tokens.operator.name } });
  /** The API's entry of `call`, then the CLI's of `args`: both returned, newest last. */
  async function both(call: () => Promise<{ status: number }>, args: string[], exit = 0) {
    const answer = await call();
    const byApi = await newest();
    const run = await cli(args);
    expect(run.code, run.err).toBe(exit);
    const byCli = await newest();
    expect(byCli.id).not.toBe(byApi.id);
    return { answer, byApi, byCli };
  }

  beforeAll(async () => {
    api = await startApi('audited-actions');
    configFile = await api.tc.configFile();
  });
  afterAll(() => api?.close());

  const post = (path: string, body?: unknown) => api.post(path, api.tokens.operator.token, body);

  it('given a pause with a reason, then the API and the CLI write the same entry; only the status tells them apart', async () => {
    const { answer, byApi, byCli } = await both(async () => {
      const r = await post(`/connections/${id}/pause`, { reason: 'month-end close' });
      await post(`/connections/${id}/resume`);
      return r;
    }, ['connections', 'pause', id, '--reason', 'month-end close']);
    expect(answer.status).toBe(200);
    expect(comparable(byCli)).toEqual(comparable((await api.tc.rt.audit.list({ limit: 3 }))[2]!));
    expect(comparable(byCli)).toEqual({
      who: 'ops-operator',
      action: 'connections.pause',
      connection: id,
      outcome: 'ok',
      detail: 'paused: month-end close',
    });
    expect(byApi.action).toBe('connections.resume');
    expect(byCli.status).toBe(0);
  });

  it('given a paused connection, when it is pulled now, then both write the same refusal (a conflict), and when resumed, the same resume', async () => {
    const sync = await both(
      () => post(`/connections/${id}/sync`, { entity: 'invoices' }),
      ['sync', '--connection', id, '--entity', 'invoices', '--now'],
      1,
    );
    expect(sync.answer.status).toBe(409);
    expect(comparable(sync.byCli)).toEqual(comparable(sync.byApi));
    expect(sync.byCli).toMatchObject({ action: 'connections.sync', outcome: 'conflict', status: 0 });
    expect(sync.byApi.status).toBe(409);

    const resume = await both(async () => {
      const r = await post(`/connections/${id}/resume`);
      await post(`/connections/${id}/pause`);
      return r;
    }, ['connections', 'resume', id]);
    const apiResume = (await api.tc.rt.audit.list({ limit: 3 }))[2]!;
    expect(resume.byApi.action).toBe('connections.pause');
    // How many held jobs each resume released depends on what started meanwhile; the words are the same.
    const released = /^resumed; released \d+ held job\(s\)$/;
    expect({ ...comparable(resume.byCli), detail: '' }).toEqual({ ...comparable(apiResume), detail: '' });
    expect(apiResume.detail).toMatch(released);
    expect(resume.byCli).toMatchObject({ action: 'connections.resume', detail: expect.stringMatching(released) });
  });

  it('given a running connection, when it is pulled now, then both write "pulling invoices"', async () => {
    const { answer, byApi, byCli } = await both(
      () => post(`/connections/${id}/sync`, { entity: 'invoices' }),
      ['sync', '--connection', id, '--entity', 'invoices', '--now'],
    );
    expect(answer.status).toBe(202);
    expect(comparable(byCli)).toEqual(comparable(byApi));
    expect(byCli).toMatchObject({ action: 'connections.sync', outcome: 'ok', detail: 'pulling invoices' });
  });

  it('given quarantined records, when one is replayed, then both write the same entry naming the record and its reason; a selection likewise', async () => {
    await api.tc.rt.quarantine.put(mapFailure('AUDIT-1'));
    const one = await both(
      () => post(`/quarantine/${id}/invoices/AUDIT-1/replay`),
      ['dlq', 'replay', '--connection', id, '--entity', 'invoices', '--erp-id', 'AUDIT-1'],
    );
    expect(one.answer.status).toBe(202);
    expect(comparable(one.byCli)).toEqual(comparable(one.byApi));
    expect(one.byCli).toMatchObject({
      action: 'quarantine.replay',
      record: 'invoices/AUDIT-1',
      detail: 'replayed (MISSING_FIELD)',
    });

    await api.tc.rt.quarantine.put(mapFailure('AUDIT-2'));
    const selection = await both(
      () => post('/quarantine/replay', { connection: id, entity: 'invoices', dryRun: false }),
      ['dlq', 'replay', '--connection', id, '--entity', 'invoices'],
    );
    expect(selection.answer.status).toBe(202);
    expect(comparable(selection.byCli)).toEqual(comparable(selection.byApi));
    expect(selection.byCli).toMatchObject({
      action: 'quarantine.replay-selection',
      detail: 'replayed 2 record(s) (invoices)',
    });
  });

  it('given a record with no drift, when it is resolved, then both write the same "not found" entry', async () => {
    const erpId = api.tc.zohoOf(id).store.invoices()[0]!.invoice_id;
    const { answer, byApi, byCli } = await both(
      () => post(`/reconciliations/${id}/items/invoices/${erpId}/resolve`, { note: 'checked by hand' }),
      ['reconcile', 'resolve', '--connection', id, '--erp-id', erpId, '--note', 'checked by hand'],
      1,
    );
    expect(answer.status).toBe(404);
    expect(comparable(byCli)).toEqual(comparable(byApi));
    expect(byCli).toMatchObject({
      action: 'reconciliations.resolve',
      outcome: 'not-found',
      record: `invoices/${erpId}`,
    });
  });

  it('given quarantined records, when they are purged from the command line (no API route), then the purge is audited with who and how many', async () => {
    const run = await cli(['dlq', 'purge', '--connection', id, '--entity', 'invoices', '--erp-id', 'AUDIT-1']);
    expect(run.code, run.err).toBe(0);
    expect(comparable(await newest())).toEqual({
      who: 'ops-operator',
      action: 'quarantine.purge',
      connection: id,
      record: 'invoices/AUDIT-1',
      outcome: 'ok',
      detail: 'purged 1 record(s) (invoices/AUDIT-1)',
    });
  });
});
