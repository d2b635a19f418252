import { afterAll, describe, expect, it } from 'vitest';
import { ConsoleSessions } from '../../src/pipeline/console-sessions.js';
import { SignInLimiter } from '../../src/pipeline/sign-in-limiter.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

const HOUR = 3_600_000;

/** The console's session store and sign-in limiter on a real Redis. */
describe('ConsoleSessions and SignInLimiter', () => {
  const prefix = testPrefix('console-sessions');
  const redis = connect();
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  /** Every key name of the prefix and every value under it, as one text. */
  const everythingStored = async () => {
    const keys = await redis.keys(`${prefix}:*`);
    const values = await Promise.all(
      keys.map(async (k) =>
        (await redis.type(k)) === 'set' ? (await redis.smembers(k)).join(' ') : ((await redis.get(k)) ?? ''),
      ),
    );
    return [...keys, ...values].join('\n');
  };

  const OPS = 'ops-token-0123456789abcdefghij';
  const ROTATED = 'ops-token-rotated-0123456789ab';

  it('given a session opened with a token, then Redis holds neither the session id (not even as a key name), its CSRF token nor the token', async () => {
    const sessions = new ConsoleSessions(redis, prefix, { ttlSeconds: 600 });
    const { id, session } = await sessions.open('ops-operator', OPS);
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.csrf).not.toBe(id);
    const stored = await everythingStored();
    for (const secret of [id, session.csrf, OPS]) expect(stored).not.toContain(secret);
    expect(stored).toContain('ops-operator');
    expect((await sessions.get(id, () => OPS))?.csrf).toBe(session.csrf);
    await sessions.close(id);
    expect(await sessions.get(id, () => OPS)).toBeUndefined();
  });

  it('given a live session, when its token is given a new value in the config, then the session ends and stays ended with the old value back', async () => {
    const sessions = new ConsoleSessions(redis, prefix);
    const { id } = await sessions.open('ops-operator', OPS);
    expect(await sessions.get(id, () => OPS)).toMatchObject({ name: 'ops-operator' });
    expect(await sessions.get(id, () => ROTATED)).toBeUndefined();
    expect(await sessions.get(id, () => OPS)).toBeUndefined();
    const other = await sessions.open('ops-operator', OPS);
    expect(await sessions.get(other.id, () => undefined)).toBeUndefined(); // the name removed from the config
  });

  it('given a session used all day, when 12 hours have passed since its sign-in, then it has ended, however recently it was used', async () => {
    let now = Date.UTC(2026, 11, 7, 6, 0, 0);
    const sessions = new ConsoleSessions(redis, prefix, { now: () => now });
    const before = new Set(await redis.keys(`${prefix}:console:session:*`));
    const { id } = await sessions.open('ops-operator', OPS);
    const key = (await redis.keys(`${prefix}:console:session:*`)).find((k) => !before.has(k))!;
    for (let hour = 1; hour < 12; hour++) {
      now += HOUR;
      expect(await sessions.get(id, () => OPS), `hour ${hour}`).toBeDefined();
    }
    // One hour left: the idle renewal (8 h) never outlives the absolute end.
    expect(await redis.pttl(key)).toBeLessThanOrEqual(HOUR);
    now += HOUR;
    expect(await sessions.get(id, () => OPS)).toBeUndefined();
  });

  it('given sessions of two tokens, when every session of one is ended, then its sessions end, the count says how many, and the other token keeps its own', async () => {
    const sessions = new ConsoleSessions(redis, prefix);
    const a = await sessions.open('rotating', OPS);
    const b = await sessions.open('rotating', OPS);
    const kept = await sessions.open('auditor', ROTATED);
    expect(await sessions.endAllOf('rotating')).toBe(2);
    for (const s of [a, b]) expect(await sessions.get(s.id, () => OPS)).toBeUndefined();
    expect(await sessions.get(kept.id, () => ROTATED)).toMatchObject({ name: 'auditor' });
    expect(await sessions.endAllOf('rotating')).toBe(0);
  });

  it('given an id that is not one the store makes, then it is not looked up', async () => {
    const sessions = new ConsoleSessions(redis, prefix);
    for (const id of ['', 'x', '*', `${'a'.repeat(43)}:x`]) expect(await sessions.get(id, () => OPS)).toBeUndefined();
  });

  it('given wrong tokens from one address, then the one past the limit is refused with the seconds left, a right token too, and another address is counted apart', async () => {
    const limiter = new SignInLimiter(redis, prefix, { attempts: 3, windowSeconds: 60 });
    for (let i = 0; i < 3; i++) expect(await limiter.fail('10.0.0.1')).toMatchObject({ allowed: true });
    expect(await limiter.admit('10.0.0.1')).toMatchObject({ allowed: false });
    const refused = await limiter.fail('10.0.0.1');
    expect(refused.allowed).toBe(false);
    expect(!refused.allowed && refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(!refused.allowed && refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await limiter.fail('10.0.0.2')).toMatchObject({ allowed: true });
    expect(await limiter.admit('10.0.0.2')).toEqual({ allowed: true });
    expect(await redis.ttl(`${prefix}:console:signin:10.0.0.1`)).toBeGreaterThan(0);
  });

  it('given wrong tokens from addresses of one IPv6 /64, then they share one limit; another /64 has its own', async () => {
    const limiter = new SignInLimiter(redis, prefix, { attempts: 3, windowSeconds: 60 });
    for (const host of ['1', 'a:b:c:d', '1234:5678:9abc:def0', 'ffff:ffff:ffff:ffff'])
      await limiter.fail(`2001:db8:aa:bb:${host}`);
    expect(await limiter.admit('2001:db8:aa:bb::99')).toMatchObject({ allowed: false });
    expect(await limiter.admit('2001:db8:aa:bc::1')).toEqual({ allowed: true });
  });

  it('given wrong tokens from many addresses past the global ceiling, then an address that already failed is refused, and one that has not is not', async () => {
    const limiter = new SignInLimiter(redis, `${prefix}:ceiling`, {
      attempts: 10,
      windowSeconds: 60,
      globalAttempts: 20,
    });
    for (let i = 0; i < 21; i++) await limiter.fail(`192.0.2.${i}`);
    expect(await limiter.fail('192.0.2.0')).toMatchObject({ allowed: false }); // its second failure
    expect(await limiter.admit('192.0.2.1')).toMatchObject({ allowed: false });
    expect(await limiter.admit('198.51.100.7')).toEqual({ allowed: true });
    expect(await limiter.fail('198.51.100.8')).toMatchObject({ allowed: true }); // a first typo still answers 401
  });
});
