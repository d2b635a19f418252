import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ENTITY_NAMES } from '../../src/connector/entities.js';
import { Checkpoints } from '../../src/pipeline/checkpoints.js';
import { ConnectionState } from '../../src/pipeline/connection-state.js';
import { type StateKeys, stateKeys } from '../../src/pipeline/keys.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

const BINDING = { company: 'Acme India', keyId: 'k-new', since: 1_700_000_000_000 };

/** A connection's state in every store a reset touches, and some it must leave alone (ledger, pause, another connection). */
async function seed(redis: Redis, k: StateKeys): Promise<void> {
  for (const c of ['c1', 'c2']) {
    await redis.hset(
      k.checkpoint(c),
      'invoices',
      '{"state":{"cursor":"2026-11-01T00:00:00Z"},"savedAt":1}',
      'customers',
      '{"state":{"cursor":null},"savedAt":1}',
    );
    await redis.hset(k.checkpointRewinds(c), 'invoices', '2');
    await redis.hset(k.windowCheckpoint(c, 'invoices'), '2026-01', '{"page":3}');
    await redis.hset(k.windowCheckpoint(c, 'credit-notes'), '2026-02', '{"page":1}');
    await redis.sadd(k.customersEnsured(c), 'buyer-1', 'buyer-2');
    await redis.hset(k.quarantine(c), 'invoices|7', '{"reason":"BILLING_COMPANY_CHANGED"}');
    await redis.hset(k.inFlight(c), 'invoices|8', '{"jobId":"j8"}');
    await redis.hset(k.verdicts(c), 'invoices|7', '{"verdict":"ok"}');
    await redis.set(k.reconcile(c), '{"at":"2026-11-01T00:00:00Z"}');
    await redis.hset(k.lastError(c), 'invoices', '{"at":1,"message":"boom"}');
    await redis.set(k.billingCompany(c), '{"company":"Old Co","keyId":"k-old","since":1}');
    await redis.hset(k.ledger(c, 'invoices'), '7', '{"version":"v1","hash":"h"}');
    await redis.set(k.paused(c), '{"since":1}');
  }
}

/** Every key under a prefix with its type and value, the prefix cut off, so two prefixes compare. */
async function dump(redis: Redis, prefix: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const key of (await redis.keys(`${prefix}:*`)).sort()) {
    const type = await redis.type(key);
    const name = key.slice(prefix.length);
    if (type === 'hash') out[name] = await redis.hgetall(key);
    else if (type === 'set') out[name] = (await redis.smembers(key)).sort();
    else out[name] = await redis.get(key);
  }
  return out;
}

/** The transaction `state rebind --new-company` ran before the store owned it, kept as the reference. */
async function resetAsBefore(redis: Redis, k: StateKeys, connection: string): Promise<void> {
  const tx = redis.multi();
  for (const e of ENTITY_NAMES) {
    tx.del(k.windowCheckpoint(connection, e));
    tx.hincrby(k.checkpointRewinds(connection), e, 1);
  }
  tx.del(
    k.checkpoint(connection),
    k.customersEnsured(connection),
    k.quarantine(connection),
    k.inFlight(connection),
    k.verdicts(connection),
  );
  tx.del(k.reconcile(connection), k.lastError(connection));
  tx.set(k.billingCompany(connection), JSON.stringify(BINDING));
  await tx.exec();
}

describe('ConnectionState', () => {
  const redis = connect();
  const before = testPrefix('connection-state-before');
  const after = testPrefix('connection-state-after');
  afterAll(async () => {
    await dropPrefix(redis, before);
    await dropPrefix(redis, after);
    await redis.quit();
  });

  it('given the same state twice, when one is reset by the store and the other by the former transaction, then every key ends the same', async () => {
    await seed(redis, stateKeys(before));
    await seed(redis, stateKeys(after));
    await resetAsBefore(redis, stateKeys(before), 'c1');
    const deleted = await new ConnectionState(redis, stateKeys(after)).resetForCompany('c1', ENTITY_NAMES, BINDING);
    expect(await dump(redis, after)).toEqual(await dump(redis, before));
    // checkpoint, 2 window checkpoints, customers ensured, quarantine, in-flight, verdicts, reconcile, last errors
    expect(deleted).toBe(9);
  });

  it('given a reset connection, then its state is gone, its binding is the new company, and the ledger, the pause and another connection are untouched', async () => {
    const k = stateKeys(after);
    const state = await dump(redis, after);
    for (const key of [
      k.checkpoint('c1'),
      k.windowCheckpoint('c1', 'invoices'),
      k.quarantine('c1'),
      k.inFlight('c1'),
      k.lastError('c1'),
    ])
      expect(state[key.slice(after.length)]).toBeUndefined();
    expect(await redis.get(k.billingCompany('c1'))).toBe(JSON.stringify(BINDING));
    expect(await redis.hgetall(k.checkpointRewinds('c1'))).toEqual(
      Object.fromEntries(ENTITY_NAMES.map((e) => [e, e === 'invoices' ? '3' : '1'])),
    );
    expect(await redis.hget(k.ledger('c1', 'invoices'), '7')).toBe('{"version":"v1","hash":"h"}');
    expect(await redis.get(k.paused('c1'))).toBe('{"since":1}');
    expect(await redis.hget(k.checkpointRewinds('c2'), 'invoices')).toBe('2');
    expect(await redis.scard(k.customersEnsured('c2'))).toBe(2);
  });

  it('given records held for review and a first sync approved, when the connection is reset, then both are gone (the history read again is held anew)', async () => {
    const prefix = testPrefix('connection-state-review');
    const k = stateKeys(prefix);
    try {
      await redis.hset(k.review('c1'), 'invoices|7', '{"version":"v1"}');
      await redis.set(k.reviewFirstSync('c1'), '{"by":"x"}');
      await redis.hset(k.review('c2'), 'invoices|8', '{"version":"v1"}');
      expect(await new ConnectionState(redis, k).resetForCompany('c1', ENTITY_NAMES, BINDING)).toBe(2);
      expect(await redis.exists(k.review('c1'), k.reviewFirstSync('c1'))).toBe(0);
      expect(await redis.hlen(k.review('c2'))).toBe(1);
    } finally {
      await dropPrefix(redis, prefix);
    }
  });

  it('given a pull that read the checkpoint before the reset, when it saves its later cursor, then the save is refused (the rewind rule) and the stream reads from the beginning', async () => {
    const prefix = testPrefix('connection-state-pull');
    const k = stateKeys(prefix);
    const checkpoints = new Checkpoints(redis, k);
    try {
      await checkpoints.save('c1', 'invoices', { cursor: '2026-11-01T00:00:00Z' });
      const read = await checkpoints.read('c1', 'invoices');
      await new ConnectionState(redis, k).resetForCompany('c1', ENTITY_NAMES, BINDING);
      expect(
        await checkpoints.save('c1', 'invoices', { cursor: '2026-11-02T00:00:00Z' }, { rewindsSeen: read.rewinds }),
      ).toBe(false);
      expect(await checkpoints.get('c1', 'invoices')).toBeUndefined();
    } finally {
      await dropPrefix(redis, prefix);
    }
  });
});
