import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/until.js';
import { ACME, type ApiUnderTest, GLOBEX, startApi } from './api-harness.js';

interface Trends {
  id: string;
  hours: string[];
  calls: { peakMinute: Array<number | null>; day: Array<number | null>; limits: { perMinute: number } };
  freshness: { p99Seconds: Array<number | null>; alertAboveSeconds: number };
  quarantine: { bucketHours: number; at: string[]; records: Array<number | null> };
}

/** GET /trends: the series the console's charts draw, sampled by the scheduled sweep, for what the token may see. */
describe('the API: trends', () => {
  let api: ApiUnderTest;

  /** A sync through the API, waited for to the last record written. */
  const sync = async (connection: string) => {
    const r = await api.post<{ pulls: Array<{ jobId: string }> }>(
      `/connections/${connection}/sync`,
      api.tokens.operator.token,
    );
    for (const p of r.body.pulls)
      await until(`pull ${p.jobId}`, async () => (await api.tc.rt.queues.pull.getJobState(p.jobId)) === 'completed');
    await until(`${connection} drained`, async () => (await api.tc.rt.inFlight.count(connection)) === 0);
  };

  beforeAll(async () => {
    api = await startApi('api-trends');
    await sync(ACME.connection);
    await sync(GLOBEX.connection);
    // One run of the scheduled sweep, as its scheduler would start it.
    const job = await api.tc.rt.queues.sweep.add('sweep', {});
    await until('the sweep ran', async () => (await api.tc.rt.queues.sweep.getJobState(job.id!)) === 'completed');
  });
  afterAll(async () => {
    await api?.close();
  });

  it('given a sweep after syncs, then each connection has this hour vendor calls, the freshness p99 and the quarantine count', async () => {
    const r = await api.get('/trends', api.tokens.viewer.token);
    expect(r.status).toBe(200);
    const { connections } = r.body as { connections: Trends[] };
    expect(connections.map((c) => c.id).sort()).toEqual([ACME.connection, GLOBEX.connection].sort());
    for (const c of connections) {
      expect(c.hours).toHaveLength(24);
      expect(Date.parse(c.hours.at(-1)!)).toBeLessThanOrEqual(Date.now());
      expect(Date.now() - Date.parse(c.hours.at(-1)!)).toBeLessThan(3_600_000);
      const used = await api.tc.rt.quotas.usage(c.id);
      // No vendor call since the sweep: the sample is the quota's count as it stands.
      expect(c.calls.day.at(-1)).toBe(used.day);
      expect(c.calls.peakMinute.at(-1)).toBeGreaterThan(0);
      expect(c.calls.limits.perMinute).toBeGreaterThan(0);
      expect(c.freshness.p99Seconds.at(-1)).toBe((await api.tc.rt.freshness.read(c.id)).p99Seconds);
      expect(c.quarantine.at).toHaveLength(42);
      expect(c.quarantine.records.at(-1)).toBe(await api.tc.rt.quarantine.count(c.id));
      expect(c.calls.day.slice(0, -1).every((v) => v === null)).toBe(true);
    }
  });

  it('given a token limited to globex, then it sees globex trends only, and acme is not found', async () => {
    const r = await api.get('/trends', api.tokens.globex.token);
    expect((r.body as { connections: Trends[] }).connections.map((c) => c.id)).toEqual([GLOBEX.connection]);
    const acme = await api.get(`/trends?connection=${ACME.connection}`, api.tokens.globex.token);
    expect(acme.status).toBe(404);
  });
});
