import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { TokenSealer } from '../../src/auth/token-sealer.js';
import { stateKeys } from '../../src/pipeline/keys.js';
import { type StoredConnection, StoredConnections } from '../../src/pipeline/stored-connections.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

/** The stored connections' hash: creates and replaces that cannot overwrite each other, a version every change moves, state purged. */
describe('StoredConnections', () => {
  const prefix = testPrefix('stored-connections');
  const a = connect();
  const b = connect();
  const sealer = TokenSealer.fromEnv({ ERP_SYNC_TOKEN_KEY: randomBytes(32).toString('base64') });
  // Two processes: what one writes, the other reads.
  const one = new StoredConnections(a, prefix, stateKeys(prefix), sealer);
  const other = new StoredConnections(b, prefix, stateKeys(prefix), sealer);
  const entry = (id: string, more: Partial<StoredConnection> = {}): StoredConnection => ({
    id,
    raw: { id, system: 'zoho-books' },
    createdAt: 1,
    createdBy: 'ops',
    updatedAt: 1,
    updatedBy: 'ops',
    ...more,
  });
  afterAll(async () => {
    await dropPrefix(a, prefix);
    await a.quit();
    await b.quit();
  });

  it('given none stored, when one is created, then every process reads it and the version moved; a second create of the id is refused', async () => {
    expect(await other.version()).toBe(0);
    expect(await one.create(entry('c1'))).toBe(true);
    expect(await other.version()).toBe(1);
    expect(await other.get('c1')).toEqual(entry('c1'));
    expect(await one.create(entry('c1', { createdBy: 'someone-else' }))).toBe(false);
    expect((await other.get('c1'))?.createdBy).toBe('ops');
    expect(await other.version()).toBe(1);
  });

  it('when it is replaced, then the change is read and the version moves; a removed one cannot be replaced, but may be created again', async () => {
    expect(await one.replace(entry('c1', { updatedBy: 'x', removedAt: 5 }))).toBe(true);
    expect(await other.version()).toBe(2);
    expect(await one.replace(entry('c1', { updatedBy: 'y' }))).toBe(false);
    expect(await one.replace(entry('c-none'))).toBe(false);
    expect(await one.create(entry('c1', { createdBy: 'again' }))).toBe(true);
    expect((await other.list()).map((e) => [e.id, e.createdBy, e.removedAt])).toEqual([['c1', 'again', undefined]]);
  });

  it('given a webhook secret sealed for one connection, then it opens for it and not for another', async () => {
    const sealed = one.sealSecret('c1', 's'.repeat(48));
    expect(sealed).toMatch(/^sealed:v1:/);
    expect(other.openSecret({ id: 'c1', webhookSecret: sealed })).toBe('s'.repeat(48));
    expect(() => other.openSecret({ id: 'c2', webhookSecret: sealed })).toThrow(/does not open/);
  });

  it("when its state is purged and it is forgotten, then its keys are gone, another connection's stay, and the version moved", async () => {
    const keys = stateKeys(prefix);
    await a.hset(keys.checkpoint('c1'), 'invoices', '{}');
    await a.hset(keys.ledger('c1', 'invoices'), 'x', '1');
    await a.hset(keys.checkpoint('c2'), 'invoices', '{}');
    const before = await one.version();

    expect(await one.purgeState('c1')).toBe(2);
    expect(await one.forget('c1')).toBe(true);

    expect(await a.exists(keys.checkpoint('c1'), keys.ledger('c1', 'invoices'))).toBe(0);
    expect(await a.exists(keys.checkpoint('c2'))).toBe(1);
    expect(await other.get('c1')).toBeUndefined();
    expect(await other.version()).toBe(before + 1);
    expect(await one.forget('c1')).toBe(false);
  });
});
