import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACME_KEY, type Api, GLOBEX_KEY, invoice, startApi } from './helpers.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('billing emulator request journal', () => {
  let api: Api;
  beforeAll(async () => {
    api = await startApi();
  });
  beforeEach(async () => {
    await api.admin('POST', '/reset');
  });
  afterAll(() => api.emu.close());

  const journal = async (query = '') =>
    (await api.admin('GET', `/journal${query}`, undefined, '')).body.entries as any[];

  it('given an upsert and a listing, when the journal is read, then each has method, path, key, status and the sha256 of its body', async () => {
    const inv = invoice();
    await api.upsert(inv, { key: GLOBEX_KEY });
    await api.list({ pageSize: 5 }, { key: ACME_KEY });
    const entries = await journal();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      seq: expect.any(Number),
      method: 'POST',
      path: '/external/invoice/upsert',
      key: GLOBEX_KEY,
      status: 200,
      bodyHash: sha256(JSON.stringify({ invoice: inv })),
    });
    expect(entries[1]).toMatchObject({
      method: 'GET',
      path: '/external/invoices',
      key: ACME_KEY,
      status: 200,
      bodyHash: sha256(''),
    });
    expect(entries[1].durationMs).toBeGreaterThanOrEqual(0);
  });

  it('given failed requests (401, 400, 413, injected 429), when the journal is read, then they are recorded with their status', async () => {
    await api.list({}, { key: null });
    await api.list({ pageSize: 0 });
    await api.upsert(invoice({ referenceText: 'x'.repeat(1024 * 1024 + 1) }));
    api.emu.faults.set({ rateLimitNext: 1 });
    await api.list();
    expect((await journal()).map((e) => e.status)).toEqual([401, 400, 413, 429]);
  });

  it('given several requests, when the journal is read with since and path, then only later entries of that path come back', async () => {
    await api.list();
    await api.upsert(invoice());
    await api.list();
    const all = await journal();
    const since = await journal(`?since=${all[0].seq}&path=/external/invoices`);
    expect(since).toHaveLength(1);
    expect(since[0].seq).toBe(all[2].seq);
  });

  it('given admin calls, when the journal is read, then they are not in it; and reset clears it', async () => {
    await api.admin('GET', '/faults', undefined, '');
    await api.admin('POST', '/clock', { now: null }, '');
    expect(await journal()).toEqual([]);
    await api.list();
    expect(await journal()).toHaveLength(1);
    await api.admin('POST', '/reset');
    expect(await journal()).toEqual([]);
    expect(api.emu.journal.list()).toEqual([]);
  });
});
