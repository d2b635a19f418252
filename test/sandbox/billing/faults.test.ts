import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACME_KEY, type Api, GLOBEX_KEY, invoice, startApi } from './helpers.js';

describe('billing emulator fault injection', () => {
  let api: Api;
  /** How far the test has moved the emulator's wall clock past real time (time passing, without sleeping). */
  let skewMs = 0;
  beforeAll(async () => {
    api = await startApi({ wall: () => Date.now() + skewMs });
  });
  beforeEach(async () => {
    await api.admin('POST', '/reset');
  });
  afterAll(() => api.emu.close());

  const setFaults = (config: unknown) => api.admin('POST', '/faults', config, '');

  it('given latencyMs, when a request is made, then the answer takes at least that long', async () => {
    await setFaults({ latencyMs: 150 });
    const started = performance.now();
    const r = await api.list();
    expect(r.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('given errorNext 2 with status 503, when three requests are made, then two answer 503 UNAVAILABLE and the third succeeds', async () => {
    await setFaults({ errorNext: 2, errorStatus: 503 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await api.upsert(invoice()));
    expect(statuses.map((r) => r.status)).toEqual([503, 503, 200]);
    expect(statuses[0]!.body).toEqual({ error: 'UNAVAILABLE', message: 'injected fault: injected error' });
  });

  it('given rateLimitNext 1 and retryAfterSeconds 7, when a request is made, then 429 RATE_LIMITED with Retry-After: 7, then normal service', async () => {
    await setFaults({ rateLimitNext: 1, retryAfterSeconds: 7 });
    const limited = await api.list();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(limited.body.error).toBe('RATE_LIMITED');
    expect((await api.list()).status).toBe(200);
  });

  it('given rateLimitRate 1, when requests are made, then every one is 429 with Retry-After', async () => {
    await setFaults({ rateLimitRate: 1 });
    const r = await api.list();
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('1');
  });

  it("given faults limited to one company's key, when both companies call, then only that key meets them (a service limiting per key)", async () => {
    await setFaults({ keys: [ACME_KEY], rateLimitRate: 1, retryAfterSeconds: 30 });
    const acme = await api.list({}, { key: ACME_KEY });
    expect(acme.status).toBe(429);
    expect(acme.headers.get('retry-after')).toBe('30');
    expect((await api.list({}, { key: GLOBEX_KEY })).status).toBe(200);
    expect((await api.list({}, { key: GLOBEX_KEY })).status).toBe(200);
  });

  it('given resetRate 1, when a request is made, then the connection is dropped without an answer and the journal records status 0', async () => {
    await setFaults({ resetRate: 1 });
    await expect(api.list()).rejects.toThrow();
    const journal = await api.admin('GET', '/journal', undefined, '');
    expect(journal.body.entries.at(-1)).toMatchObject({ path: '/external/invoices', status: 0 });
  });

  it('given an outage for the next 300 ms, when requests are made during and after it, then 503 during and 200 after', async () => {
    await setFaults({ outageForMs: 300 });
    const during = await api.list();
    expect(during.status).toBe(503);
    expect(during.body.message).toContain('outage');
    skewMs += 350;
    expect((await api.list()).status).toBe(200);
  });

  it('given an outage window by instants (outageFrom/outageUntil), when a request falls inside it, then 503', async () => {
    const from = new Date(Date.now() - 1000).toISOString();
    const until = new Date(Date.now() + 60_000).toISOString();
    await setFaults({ outageFrom: from, outageUntil: until });
    expect((await api.list()).status).toBe(503);
    await setFaults({ outageFrom: new Date(Date.now() + 60_000).toISOString() });
    expect((await api.list()).status).toBe(200);
  });

  it('given faults that would fail every request, when admin endpoints are called, then they are never faulted', async () => {
    await setFaults({ errorRate: 1, resetRate: 0 });
    const faults = await api.admin('GET', '/faults', undefined, '');
    expect(faults.status).toBe(200);
    expect(faults.body).toMatchObject({ errorRate: 1, errorStatus: 503 });
    expect((await api.list()).status).toBe(503);
  });

  it('given an invalid fault config, when it is posted, then 400 names the field and the old config stays', async () => {
    await setFaults({ latencyMs: 5 });
    const r = await setFaults({ errorRate: 2 });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('errorRate: ');
    expect((await api.admin('GET', '/faults', undefined, '')).body.latencyMs).toBe(5);
  });

  it('given the faults API on the returned object, when a test sets faults directly, then they apply too', async () => {
    api.emu.faults.set({ errorNext: 1, errorStatus: 500 });
    const r = await api.list();
    expect(r.status).toBe(500);
    expect(r.body.error).toBe('INTERNAL');
  });
});

describe('billing emulator started with faults', () => {
  it('given faults at start, when /__admin/reset is called, then those start-time faults are restored', async () => {
    const api = await startApi({ faults: { errorNext: 1 } });
    try {
      expect((await api.list()).status).toBe(503);
      expect((await api.list()).status).toBe(200);
      await api.admin('POST', '/reset');
      expect((await api.list()).status).toBe(503);
    } finally {
      await api.emu.close();
    }
  });
});
