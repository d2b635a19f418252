import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collectStatus } from '../../operations/collect-status.js';
import { CONNECTION, startHarness, until, type Harness } from '../support/harness.js';

describe('erp-sync status: why a stream is not syncing', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await startHarness({ name: 'status', invoices: 5 });
    p.startWorkers(['pull', 'upsert']);
  }, 60_000);
  afterAll(() => p?.close());

  const pullOnce = async () => {
    const job = await p.rt.queues.pull.add('pull', { connectionId: CONNECTION, entity: 'invoices' }, { attempts: 1 });
    return until(
      `pull ${job.id} to finish`,
      async () => ['completed', 'failed'].includes(await job.getState()) && job.id,
      30_000,
    );
  };
  const invoicesStatus = async () =>
    (await collectStatus(p.rt)).connections
      .find((c) => c.id === CONNECTION)!
      .entities.find((e) => e.entity === 'invoices')!;

  it('given the vendor refusing every request, when a pull fails, then status shows when and why next to "last success", and the next successful pull clears it', async () => {
    // The access token is fetched first, so the faults hit the API calls only: a token endpoint that
    // refuses the refresh is another story (the connection is parked: test/reliability/reauthorise-connection.test.ts).
    await p.rt
      .vendorClient(CONNECTION)
      .request({ path: 'organizations', endpoint: 'GET /organizations', schema: z.any() });
    p.zoho.faults.set({ errorRate: 1, errorStatus: 400 });
    const before = Date.now();
    await pullOnce();
    const failed = await invoicesStatus();
    expect(failed.lastSuccess).toBeNull();
    expect(failed.lastError).toMatchObject({ message: expect.stringMatching(/\S/) });
    expect(Date.parse(failed.lastError!.at)).toBeGreaterThanOrEqual(before - 1000);

    p.zoho.faults.set({});
    await pullOnce();
    const recovered = await invoicesStatus();
    expect(recovered.lastSuccess).not.toBeNull();
    expect(recovered.lastError).toBeNull();
  }, 60_000);
});
