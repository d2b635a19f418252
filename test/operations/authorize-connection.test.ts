import { afterAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../jobs/runtime.js';
import { chooseOrganisation, finishAuthorization } from '../../operations/authorize-connection.js';
import { TokenSealer } from '../../src/auth/token-sealer.js';
import { PendingAuthorizations } from '../../src/pipeline/pending-authorizations.js';
import { connect, dropPrefix, testPrefix } from '../support/redis.js';

/** Which console session may finish an authorisation: only the one that started it, and a stranger burns nothing. */
describe('finishing an authorisation from another console session', () => {
  const prefix = testPrefix('authorize-connection');
  const redis = connect();
  const sealer = TokenSealer.plain();
  const pending = new PendingAuthorizations(redis, prefix, sealer);
  // Only what taking a pending authorisation touches: the runtime's pending authorisations.
  const rt = { pendingAuthorizations: pending } as unknown as Runtime;
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });
  const consent = {
    phase: 'consent',
    connection: 'xero-in',
    session: 'session-a',
    who: 'ops-admin',
    redirectUri: 'http://x/cb',
  } as const;

  it('given a consent started by session A, when session B comes back with its state, then B is refused and the consent is still there for A', async () => {
    await pending.put('state-of-a', consent);
    const query = new URLSearchParams({ state: 'state-of-a', code: 'stolen-code' });
    await expect(finishAuthorization(rt, query, 'session-b')).rejects.toThrow(/another console session/);
    await expect(chooseOrganisation(rt, 'state-of-a', 'org', 'session-b')).rejects.toThrow(/another console session/);
    // Still pending: session A takes it (once).
    expect(await pending.takeOwn('state-of-a', 'session-a')).toEqual({ found: true, own: true, pending: consent });
    expect(await pending.takeOwn('state-of-a', 'session-a')).toEqual({ found: false });
  });

  it('given no consent under a state, when any session comes back with it, then it is refused as stale, used or forged', async () => {
    const query = new URLSearchParams({ state: 'made-up', code: 'c' });
    await expect(finishAuthorization(rt, query, 'session-a')).rejects.toThrow(/no authorisation in progress/);
  });
});
