import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { queuePrefix, QUEUES } from '../../jobs/catalog.js';
import { stateKeys } from '../../src/pipeline/keys.js';

/** The keys that belong to no connection: each is used alone (docs/operations.md, "Redis Cluster"). */
const GLOBAL = ['billingProbe', 'billingRate', 'billingKeyBudget', 'runUpserts', 'appMonthCalls'];

/** Every key function of stateKeys, called with the connection `c` (and 'x' for any other argument). */
function allKeys(layout: { cluster?: boolean }): Array<[name: string, key: string]> {
  const keys = stateKeys('erp-sync', layout) as unknown as Record<string, (...args: string[]) => string>;
  return Object.entries(keys).map(([name, f]) => [name, GLOBAL.includes(name) ? f('x') : f('c', 'x', 'x')]);
}

/** The hash tag Redis Cluster hashes: the text between the first '{' and the first '}' after it. */
function hashTag(key: string): string | undefined {
  const open = key.indexOf('{');
  const close = key.indexOf('}', open + 1);
  return open >= 0 && close > open + 1 ? key.slice(open + 1, close) : undefined;
}

describe('the Redis key layout', () => {
  it('given one Redis, then no key carries a hash tag and the queues keep the plain prefix (the names of earlier releases)', () => {
    for (const [name, key] of allKeys({})) expect(key, name).not.toMatch(/[{}]/);
    for (const q of Object.values(QUEUES)) expect(queuePrefix('erp-sync', q)).toBe('erp-sync');
  });

  it("given a Redis Cluster, then every key of a connection has the connection id as its hash tag, and only the documented keys have none of a connection's", () => {
    const untagged: string[] = [];
    for (const [name, key] of allKeys({ cluster: true })) {
      if (hashTag(key) === 'c') continue;
      expect(hashTag(key), name).toBeUndefined();
      untagged.push(name);
    }
    expect(untagged.sort()).toEqual([...GLOBAL].sort());
  });

  it('given a Redis Cluster, then each queue has its own tag except backfill, which shares pull’s (a backfill is a flow over both)', () => {
    const tags = Object.fromEntries(
      Object.values(QUEUES).map((q) => [q, hashTag(`${queuePrefix('erp-sync', q, { cluster: true })}:${q}:wait`)]),
    );
    expect(tags).toEqual({
      pull: 'erp-sync:pull',
      backfill: 'erp-sync:pull',
      upsert: 'erp-sync:upsert',
      reconcile: 'erp-sync:reconcile',
      sweep: 'erp-sync:sweep',
    });
  });

  it('given the Lua scripts, then every key they touch comes from KEYS (or a function parameter holding one), never a name built in the script', () => {
    const dir = new URL('../../src/pipeline/lua/', import.meta.url);
    const files = [
      ...readdirSync(dir).filter((f) => f.endsWith('.lua')),
      ...readdirSync(new URL('includes/', dir)).map((f) => `includes/${f}`),
    ];
    expect(files.length).toBeGreaterThan(20);
    const KEYLESS = new Set(['time']);
    for (const file of files) {
      const source = readFileSync(new URL(file, dir), 'utf8');
      for (const m of source.matchAll(/redis\.call\('([a-z]+)'(?:,\s*([^,)]+))?/g)) {
        if (KEYLESS.has(m[1]!)) continue;
        const key = m[2]!.trim();
        expect(key, `${file}: redis.call('${m[1]}', ${key}, …)`).toMatch(/^(KEYS\[\d+\]|[a-z][A-Za-z]*)$/);
      }
    }
  });
});
