import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../jobs/runtime.js';
import { CONNECTION, type Harness, startHarness } from '../support/harness.js';

/**
 * Upgrading a deployment on one Redis loses nothing: there the key names are those earlier releases
 * wrote (hash tags are a Redis Cluster's layout only, src/pipeline/keys.ts), so there is nothing to
 * migrate. The state below is written under the literal names of the earlier layout, not through
 * stateKeys, so a rename slipping into the single-Redis layout fails here.
 */
describe('given state written on one Redis by an earlier release (checkpoints, ledger, quarantine, tokens, a queued upsert)', () => {
  let p: Harness;
  let rt: Runtime;
  const erpId = '9001';
  const entry = {
    hash: 'h1',
    version: '2025-03-01T10:00:00Z',
    billingId: `inv.${CONNECTION}.${erpId}`,
    writtenAt: 1_740_000_000_000,
  };
  const checkpoint = { state: { cursor: '2025-03-01T10:00:00Z' }, savedAt: 1_740_000_000_000 };

  beforeAll(async () => {
    p = await startHarness({ name: 'layout-upgrade' });
    const old = (rest: string) => `${p.prefix}:${rest}`;
    await p.redis.hset(old(`ledger:${CONNECTION}:invoices`), erpId, JSON.stringify(entry));
    await p.redis.hset(old(`checkpoint:${CONNECTION}`), 'invoices', JSON.stringify(checkpoint));
    await p.redis.hset(old(`checkpoint-rewinds:${CONNECTION}`), 'invoices', '2');
    const quarantined = {
      connection: CONNECTION,
      entity: 'invoices',
      erpId: '9002',
      version: '2025-03-02T00:00:00Z',
      stage: 'map',
      reason: 'MAPPING',
      message: 'no currency',
    };
    await p.redis.hset(old(`quarantine:${CONNECTION}`), 'invoices|9002', JSON.stringify(quarantined));
    // A refresh token the vendor rotated since the config's was seeded (a store from before fingerprints).
    await p.redis.hset(
      old(`token:${CONNECTION}`),
      'refreshToken',
      'rotated-refresh-token',
      'grantedAt',
      '1740000000000',
    );
    const upserts = new Queue('upsert', { connection: p.redis, prefix: p.prefix });
    await upserts.add('upsert', { queuedBy: 'the earlier release' }, { jobId: 'queued-before-upgrade' });
    await upserts.close();
    // The upgraded process starts on the same Redis and prefix.
    rt = await p.newRuntime();
  }, 60_000);
  afterAll(() => p?.close());

  it('when the upgraded runtime starts, then it reads the checkpoints, ledger, quarantine and queued jobs as they were', async () => {
    expect(await rt.ledger.get(CONNECTION, 'invoices', erpId)).toEqual(entry);
    expect(await rt.ledger.count(CONNECTION, 'invoices')).toBe(1);
    expect(await rt.checkpoints.read(CONNECTION, 'invoices')).toEqual({ checkpoint, rewinds: 2 });
    expect(await rt.quarantine.get(CONNECTION, 'invoices', '9002')).toMatchObject({
      reason: 'MAPPING',
      version: '2025-03-02T00:00:00Z',
    });
    expect((await rt.queues.upsert.getJob('queued-before-upgrade'))?.data).toEqual({ queuedBy: 'the earlier release' });
  });

  it("when it seeds the config's refresh token, then the stored (rotated) token is kept, not replaced", async () => {
    expect(await rt.tokens.describe(CONNECTION)).toMatchObject({ hasRefreshToken: true, grantedAt: 1_740_000_000_000 });
    expect(await rt.tokens.seed(CONNECTION, p.secrets.zohoRefreshToken)).toBe('adopted');
    expect(await p.redis.hget(`${p.prefix}:token:${CONNECTION}`, 'refreshToken')).toBe('rotated-refresh-token');
  });
});
