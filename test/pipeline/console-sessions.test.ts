import { afterAll, describe, expect, it } from 'vitest';
import { ConsoleSessions } from '../../src/pipeline/console-sessions.js';
import { SignInLimiter } from '../../src/pipeline/sign-in-limiter.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

/** The console's session store and sign-in limiter on a real Redis. */
describe('ConsoleSessions and SignInLimiter', () => {
  const prefix = testPrefix('console-sessions');
  const redis = connect();
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  it('given a session opened for a token name, then Redis holds the name and a CSRF token under a TTL, never more, and closing ends it', async () => {
    const sessions = new ConsoleSessions(redis, prefix, 600);
    const { id, session } = await sessions.open('ops-operator');
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.csrf).not.toBe(id);
    const key = `${prefix}:console:session:${id}`;
    expect(JSON.parse((await redis.get(key))!)).toEqual({ name: 'ops-operator', csrf: session.csrf });
    await redis.expire(key, 5);
    expect(await sessions.get(id)).toEqual(session);
    expect(await redis.ttl(key)).toBeGreaterThan(590); // a use renews it
    await sessions.close(id);
    expect(await sessions.get(id)).toBeUndefined();
  });

  it('given an id that is not one the store makes, then it is not looked up', async () => {
    const sessions = new ConsoleSessions(redis, prefix);
    for (const id of ['', 'x', '*', `${'a'.repeat(43)}:x`]) expect(await sessions.get(id)).toBeUndefined();
  });

  it('given attempts from one address, then the limit refuses the one past it with the seconds left, and another address is counted apart', async () => {
    const limiter = new SignInLimiter(redis, prefix, 3, 60);
    for (let i = 0; i < 3; i++) expect(await limiter.attempt('10.0.0.1')).toEqual({ allowed: true });
    const refused = await limiter.attempt('10.0.0.1');
    expect(refused.allowed).toBe(false);
    expect(!refused.allowed && refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(!refused.allowed && refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await limiter.attempt('10.0.0.2')).toEqual({ allowed: true });
    expect(await redis.ttl(`${prefix}:console:signin:10.0.0.1`)).toBeGreaterThan(0);
  });
});
