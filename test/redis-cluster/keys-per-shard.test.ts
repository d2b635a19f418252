import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenStore } from '../../src/auth/token-store.js';
import { Checkpoints } from '../../src/pipeline/checkpoints.js';
import { ConnectionControl } from '../../src/pipeline/connection-control.js';
import { InFlight } from '../../src/pipeline/in-flight.js';
import { stateKeys } from '../../src/pipeline/keys.js';
import { Ledger, type LedgerEntry } from '../../src/pipeline/ledger.js';
import { Quotas } from '../../src/pipeline/quotas.js';
import { RunHistory, type RunRecord } from '../../src/pipeline/run-history.js';
import { SyncStatus } from '../../src/pipeline/sync-status.js';
import { UpsertState } from '../../src/pipeline/upsert-state.js';
import { RedisHealth } from '../../src/pipeline/redis-health.js';
import {
  assertNoEviction,
  checkRedisReachable,
  dataNodes,
  deleteKeysWithPrefix,
  scanKeys,
  stateConnection,
} from '../../src/redis.js';
import { startRedisCluster, type LocalRedisCluster } from '../support/redis-cluster.js';

/**
 * On a Redis Cluster each connection's state lives in one slot (its id is the keys' hash tag), so every
 * script and transaction of a connection runs on one node, and two connections can live on two shards.
 */
describe('given a Redis Cluster of three masters and two connections whose tags hash to slots of different masters', () => {
  let cluster: LocalRedisCluster;
  let redis: Redis;
  const prefix = `test-shards-${randomBytes(4).toString('hex')}`;
  const keys = stateKeys(prefix, { cluster: true });
  let a: string;
  let b: string;
  let portA: number;
  let portB: number;

  beforeAll(async () => {
    cluster = await startRedisCluster();
    redis = stateConnection(cluster.url);
    // The first two candidate ids whose tags are served by different masters.
    const placed: Array<{ id: string; port: number }> = [];
    for (let i = 0; placed.length < 2; i++) {
      const id = `zoho-${i}`;
      const port = await cluster.portOfSlot(await cluster.keySlot(`{${id}}`));
      if (!placed.some((p) => p.port === port)) placed.push({ id, port });
    }
    [{ id: a, port: portA }, { id: b, port: portB }] = placed as [
      { id: string; port: number },
      { id: string; port: number },
    ];
  }, 60_000);
  afterAll(async () => {
    await redis?.quit();
    await cluster?.stop();
  });

  const entry = (version: string): LedgerEntry => ({
    version,
    hash: `h-${version}`,
    billingId: `inv-${version}`,
    writtenAt: 1,
  });

  it("when each connection's state is written through the stores (scripts, transactions, pipelines), then every key of a connection is in its slot, on its master, and nowhere else", async () => {
    const tokens = new TokenStore(redis, { prefix, cluster: true });
    for (const c of [a, b]) {
      // Lua scripts of several keys: begin/commit of an upsert (lock, ledger, quarantine, in-flight, date index).
      await new InFlight(redis, keys).track(c, [{ entity: 'invoices', erpId: '1', jobId: 'job-1', payload: {} }]);
      const state = new UpsertState(redis, keys);
      const begun = await state.begin(c, 'invoices', '1', undefined, 60_000, 'job-1');
      expect(begun.lock).toBeDefined();
      expect(await state.commit(c, 'invoices', '1', entry('2025-01-01T00:00:00Z'), 'job-1', 'job-1')).toBe(true);
      // Checkpoint read (MULTI of two keys) and save under the rewind count (script of two keys).
      const checkpoints = new Checkpoints(redis, keys);
      const read = await checkpoints.read(c, 'invoices');
      expect(await checkpoints.save(c, 'invoices', { cursor: '2025-01-02' }, { rewindsSeen: read.rewinds })).toBe(true);
      expect(await checkpoints.rewindCheckpoint(c, 'invoices', '2025-01-01')).toBe(true);
      // Vendor quota (script of four keys), pause/resume (MULTI of two keys), run history (MULTI, pipeline), status.
      const quotas = new Quotas(redis, keys);
      const release = await quotas.acquire(c, { perMinute: 100, perDay: 1000, concurrency: 2 });
      await release();
      const control = new ConnectionControl(redis, keys);
      await control.pause(c, { by: 'test' });
      expect(await control.holdIfPaused(c, { queue: 'pull', jobId: 'j' })).toBeDefined();
      expect((await control.resume(c)).held).toHaveLength(1);
      const runs = new RunHistory(redis, keys, 5);
      await runs.record({
        connection: c,
        kind: 'pull',
        entity: 'invoices',
        startedAt: 1,
        endedAt: 2,
        outcome: 'ok',
      } as unknown as RunRecord);
      expect(await runs.list(c)).toHaveLength(1);
      await new SyncStatus(redis, keys).recordSuccess(c, 'invoices');
      // Tokens: the seed script touches the token hash and its refresh lock.
      expect(await tokens.seed(c, `refresh-${c}`)).toBe('seeded');
    }

    const ledger = new Ledger(redis, keys);
    expect(await ledger.get(a, 'invoices', '1')).toMatchObject({ billingId: 'inv-2025-01-01T00:00:00Z' });
    expect(await tokens.storedKeys()).toEqual([a, b].sort());

    // Where the keys are: every key of a connection on its own master, in the slot of its tag.
    const held = new Map<number, string[]>();
    for (const node of await dataNodes(redis)) {
      const found: string[] = [];
      let cursor = '0';
      do {
        const [next, batch] = await node.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        cursor = next;
        found.push(...batch);
      } while (cursor !== '0');
      held.set(node.options.port!, found);
    }
    const ofA = (held.get(portA) ?? []).filter((k) => k.includes(`{${a}}`));
    const ofB = (held.get(portB) ?? []).filter((k) => k.includes(`{${b}}`));
    expect(ofA.length).toBeGreaterThanOrEqual(8);
    expect(ofB.length).toBe(ofA.length);
    const all = [...held.values()].flat();
    expect(all.filter((k) => k.includes(`{${a}}`)).sort()).toEqual(ofA.sort());
    expect(all.filter((k) => k.includes(`{${b}}`)).sort()).toEqual(ofB.sort());
    const slotA = await cluster.keySlot(`{${a}}`);
    for (const k of ofA) expect(await cluster.keySlot(k)).toBe(slotA);
    expect(await cluster.keySlot(`{${b}}`)).not.toBe(slotA);
    console.info(
      `[cluster] ${a} → slot ${slotA} on :${portA}, ${b} → slot ${await cluster.keySlot(`{${b}}`)} on :${portB}; ${ofA.length} keys each`,
    );
  });

  it('when every key of the prefix is scanned and deleted, then all masters are covered and none is left', async () => {
    let before = 0;
    for await (const batch of scanKeys(redis, `${prefix}:*`)) before += batch.length;
    expect(before).toBeGreaterThan(16);
    expect(await deleteKeysWithPrefix(redis, prefix)).toBe(before);
    let after = 0;
    for await (const batch of scanKeys(redis, `${prefix}:*`)) after += batch.length;
    expect(after).toBe(0);
  });

  it('when one master is switched to an evicting policy, then the start check refuses it, and memory is read from the fullest master', async () => {
    await checkRedisReachable(cluster.url);
    await assertNoEviction(redis);
    const [first, second] = await dataNodes(redis);
    await first!.config('SET', 'maxmemory-policy', 'allkeys-lru');
    try {
      await expect(assertNoEviction(redis)).rejects.toThrow(/"allkeys-lru".*on every node of the cluster/);
    } finally {
      await first!.config('SET', 'maxmemory-policy', 'noeviction');
    }
    const health = new RedisHealth(redis);
    // A master without maxmemory: the memory alerts could not fire for it, so the gauge says unset (0).
    await second!.config('SET', 'maxmemory', '1gb');
    try {
      expect((await health.memory()).maxmemory).toBe(0);
      for (const node of await dataNodes(redis)) await node.config('SET', 'maxmemory', '1gb');
      const memory = await health.memory();
      expect(memory.maxmemory).toBe(1024 ** 3);
      expect(memory.usedRatio).toBeGreaterThan(0);
    } finally {
      for (const node of await dataNodes(redis)) await node.config('SET', 'maxmemory', '0');
    }
  });
});
