import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { TOKEN_KEY_ENV, TokenSealer } from '../../src/auth/token-sealer.js';
import { PendingAuthorizations } from '../../src/pipeline/pending-authorizations.js';
import { sha256Hex } from '../../src/pipeline/content-hash.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

/** The console's authorisations in flight on a real Redis: once per state, under a TTL, a held grant sealed. */
describe('PendingAuthorizations', () => {
  const prefix = testPrefix('pending-authorizations');
  const redis = connect();
  const sealer = TokenSealer.fromEnv({ [TOKEN_KEY_ENV]: randomBytes(32).toString('base64') });
  const pending = new PendingAuthorizations(redis, prefix, sealer, 600);
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });
  const consent = {
    phase: 'consent',
    connection: 'xero-in',
    session: 's',
    who: 'ops-admin',
    redirectUri: 'http://x/cb',
  } as const;

  it('given a started authorisation, then it is kept under the hash of its state with a TTL, and taken once', async () => {
    await pending.put('state-1', consent);
    const key = `${prefix}:console:oauth:${sha256Hex('state-1')}`;
    expect(await redis.ttl(key)).toBeGreaterThan(590);
    expect(await redis.keys(`${prefix}:*state-1*`)).toEqual([]);
    expect(await pending.take('state-1')).toEqual(consent);
    expect(await pending.take('state-1')).toBeUndefined();
    expect(await pending.take('')).toBeUndefined();
  });

  it('given a grant held for a choice, then Redis holds it sealed, and it opens only under its own state', async () => {
    const grant = { accessToken: 'access-secret-1', refreshToken: 'refresh-secret-1', expiresInSeconds: 1800 };
    const sealed = pending.seal('state-2', grant);
    await pending.put('state-2', {
      ...consent,
      phase: 'choose',
      organisations: [],
      sealedGrant: sealed,
      extraConfigLines: [],
    });
    const raw = (await redis.get(`${prefix}:console:oauth:${sha256Hex('state-2')}`))!;
    expect(raw).not.toContain('refresh-secret-1');
    expect(raw).not.toContain('access-secret-1');
    expect(pending.open('state-2', sealed)).toEqual(grant);
    expect(() => pending.open('state-3', sealed)).toThrow();
  });
});
