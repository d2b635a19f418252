import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateKeys } from '../../src/pipeline/keys.js';
import { Ledger } from '../../src/pipeline/ledger.js';
import { Quarantine } from '../../src/pipeline/quarantine.js';
import { RecordLock } from '../../src/pipeline/record-lock.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

describe('pipeline state in Redis', () => {
  const prefix = testPrefix('state');
  const keys = stateKeys(prefix);
  let a: Redis;
  let b: Redis;
  beforeAll(() => {
    a = connect();
    b = connect();
  });
  afterAll(async () => {
    await dropPrefix(a, prefix);
    await a.quit();
    await b.quit();
  });

  describe('ledger', () => {
    const entry = (version: string, hash = 'h') => ({ hash, version, billingId: 'c-inv-1', writtenAt: 1 });
    it('given v2 written, when a late v1 job writes, then v1 is refused and v2 stays', async () => {
      const ledger = new Ledger(a, keys);
      expect(await ledger.put('c', 'invoices', '1', entry('2026-01-02T00:00:00.000Z', 'h2'))).toBe(true);
      expect(await ledger.put('c', 'invoices', '1', entry('2026-01-01T00:00:00.000Z', 'h1'))).toBe(false);
      expect((await ledger.get('c', 'invoices', '1'))?.hash).toBe('h2');
    });
    it('given the same version again (a retried job), then it is accepted', async () => {
      const ledger = new Ledger(a, keys);
      expect(await ledger.put('c', 'invoices', '1', entry('2026-01-02T00:00:00.000Z', 'h2'))).toBe(true);
    });
    it('given 2,500 entries, then scan yields each exactly once in bounded batches', async () => {
      const ledger = new Ledger(a, keys);
      const pipe = a.pipeline();
      for (let i = 0; i < 2500; i++)
        pipe.hset(keys.ledger('scan', 'invoices'), `id-${i}`, JSON.stringify(entry('2026-01-01T00:00:00.000Z')));
      await pipe.exec();
      const seen = new Set<string>();
      for await (const batch of ledger.scan('scan', 'invoices', 500)) for (const [id] of batch) seen.add(id);
      expect(seen.size).toBe(2500);
      expect(await ledger.getMany('scan', 'invoices', ['id-1', 'nope'])).toEqual([
        expect.objectContaining({ billingId: 'c-inv-1' }),
        undefined,
      ]);
    });
  });

  describe('quarantine', () => {
    const q = (version: string, reason = 'FX_SUSPECT') => ({
      connection: 'c',
      entity: 'invoices',
      erpId: '9',
      version,
      reason,
      message: 'm',
      stage: 'map' as const,
      at: Date.now(),
    });
    it('given an entry, when a newer version fails differently, then it supersedes; an older one does not', async () => {
      const quarantine = new Quarantine(a, keys);
      await quarantine.put(q('2026-01-02T00:00:00.000Z'));
      expect(await quarantine.put(q('2026-01-03T00:00:00.000Z', 'AMOUNTS_INCONSISTENT'))).toBe(true);
      expect(await quarantine.put(q('2026-01-01T00:00:00.000Z', 'MISSING_FIELD'))).toBe(false);
      expect((await quarantine.get('c', 'invoices', '9'))?.reason).toBe('AMOUNTS_INCONSISTENT');
      expect(await quarantine.countByReason('c')).toEqual({ AMOUNTS_INCONSISTENT: 1 });
    });
    it('given a later success of an older version, then the newer entry is kept; a newer success clears it', async () => {
      const quarantine = new Quarantine(a, keys);
      expect(await quarantine.clear('c', 'invoices', '9', '2026-01-02T00:00:00.000Z')).toBe(false);
      expect(await quarantine.clear('c', 'invoices', '9', '2026-01-04T00:00:00.000Z')).toBe(true);
      expect(await quarantine.count('c')).toBe(0);
    });
  });

  describe('record lock', () => {
    it('given one holder, then a second process cannot take it until released', async () => {
      const la = new RecordLock(a, keys);
      const lb = new RecordLock(b, keys);
      const release = await la.tryAcquire('c', 'invoices', '1');
      expect(release).toBeDefined();
      expect(await lb.tryAcquire('c', 'invoices', '1')).toBeUndefined();
      await release!();
      const again = await lb.tryAcquire('c', 'invoices', '1');
      expect(again).toBeDefined();
      await again!();
    });
  });
});
