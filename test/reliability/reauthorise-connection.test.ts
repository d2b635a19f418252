import { randomBytes } from 'node:crypto';
import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collectConnections } from '../../operations/list-connections.js';
import { collectStatus } from '../../operations/collect-status.js';
import { tokenStatus } from '../../cli/commands/token.js';
import { collector } from '../../app/service.js';
import { CREDENTIALS_RECHECK_MS } from '../../src/auth/credentials-recheck.js';
import { TokenSealer } from '../../src/auth/token-sealer.js';
import { parseConfig } from '../../src/config.js';
import { validateSettings } from '../../connectors/registry.js';
import { ParkedError } from '../../src/errors/index.js';
import { ZOHO_SANDBOX_DEFAULTS } from '../../sandbox/zoho-books/index.js';
import { createRuntime } from '../../app/create-runtime.js';
import type { Runtime } from '../../jobs/runtime.js';
import { createLogger } from '../../src/observability/logger.js';
import { CONNECTION, type Harness, startHarness, until } from '../support/harness.js';
import { TEST_REDIS_URL } from '../support/redis.js';

/**
 * A connection whose grant the vendor revokes, and the re-consent that brings it back, on the Zoho
 * sandbox's real token endpoint and real Redis, with tokens sealed (ERP_SYNC_TOKEN_KEY set for the
 * runtimes of this file).
 */
const KEY = randomBytes(32).toString('base64');
const organizations = { path: 'organizations', endpoint: 'GET /organizations', schema: z.any() };

describe('given a connection whose grant the vendor revokes', () => {
  let p: Harness;
  const saved = process.env.ERP_SYNC_TOKEN_KEY;
  beforeAll(async () => {
    process.env.ERP_SYNC_TOKEN_KEY = KEY;
    p = await startHarness({ name: 'reauth', invoices: 10 });
  });
  afterAll(async () => {
    await p?.close();
    if (saved === undefined) delete process.env.ERP_SYNC_TOKEN_KEY;
    else process.env.ERP_SYNC_TOKEN_KEY = saved;
  });

  const tokenHash = () => p.redis.hgetall(`${p.prefix}:token:${CONNECTION}`);
  const gauge = async (rt: Runtime) => {
    await collector(rt)();
    const m = await rt.metrics.connectionCredentialsOk.get();
    return m.values.find((v) => v.labels.connection === CONNECTION)?.value;
  };

  it('when the connection works, then its tokens sit in Redis sealed: the raw values are not the tokens', async () => {
    await p.rt.vendorClient(CONNECTION).request(organizations);
    const raw = await tokenHash();
    expect(raw.refreshToken).toBeDefined();
    expect(raw.refreshToken).not.toContain(p.secrets.zohoRefreshToken);
    expect(TokenSealer.withKeys(KEY).open(raw.refreshToken!, `${CONNECTION}:refreshToken`)).toBe(
      p.secrets.zohoRefreshToken,
    );
    expect(await gauge(p.rt)).toBe(1);
    expect((await tokenStatus(p.rt, CONNECTION)).sealedUnder).toBe(TokenSealer.withKeys(KEY).currentKeyId);
  });

  it('when the vendor refuses the refresh token, then the credentials gauge is 0 on every replica, the connection is parked for the recheck, status and connections say so, and no further token call is made', async () => {
    p.zoho.tokens.revoke();
    p.zoho.tokens.expireAll();
    const worker = p.startWorkers(['pull']);
    const attemptsBefore = p.zoho.tokens.refreshAttempts;
    // The access token in Redis is still unexpired as far as we know: the vendor's 401 forces the refresh.
    const job = (await p.rt.queues.pull.add(
      'pull',
      { connectionId: CONNECTION, entity: 'invoices' },
      { attempts: 3 },
    )) as Job;
    await until('the pull to fail', async () => (await job.getState()) === 'failed', 30_000, 50);
    const failed = await p.rt.queues.pull.getJob(job.id!);
    expect(failed?.failedReason).toMatch(/invalid_code|invalid_grant|refresh|token/i);
    expect(failed?.attemptsMade).toBe(1);
    expect(p.zoho.tokens.refreshAttempts - attemptsBefore).toBe(1);

    const parked = await p.rt.quotas.parkedUntil(CONNECTION);
    expect(parked).toBeGreaterThan(Date.now() + CREDENTIALS_RECHECK_MS - 60_000);
    expect(await gauge(p.rt)).toBe(0);
    const replica = await p.newRuntime();
    expect(await gauge(replica)).toBe(0);

    const status = await collectStatus(p.rt);
    const mine = status.connections.find((c) => c.id === CONNECTION)!;
    expect(mine.credentials.ok).toBe(false);
    expect(mine.parkedUntil).not.toBeNull();
    const listed = (await collectConnections(p.rt)).connections.find((c) => c.id === CONNECTION)!;
    expect(listed.state).toBe('reauthorise');
    const t = await tokenStatus(p.rt, CONNECTION);
    expect(t.credentialsOk).toBe(false);
    expect(t.lastFailure?.failure).toMatch(/SYNC_ERR_AUTH_REJECTED/);

    // The next call waits for the recheck instead of asking the token endpoint again.
    const next = await p.rt
      .vendorClient(CONNECTION)
      .request(organizations)
      .catch((e: unknown) => e);
    expect(next).toBeInstanceOf(ParkedError);
    expect(p.zoho.tokens.refreshAttempts - attemptsBefore).toBe(1);
    await worker.stop(2_000);
  });

  it('when the user consents again and the config brings the new refresh token, then it takes over without touching Redis by hand: the old one is refused by the sandbox, the new one works, the park is lifted', async () => {
    const renewed = `1000.rel-zoho-reconsented-${randomBytes(4).toString('hex')}`;
    p.zoho.tokens.consent(renewed);
    // The old token is dead on the vendor's side: its token endpoint refuses it.
    const asked = await fetch(`${p.zoho.url}/oauth/v2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: p.secrets.zohoRefreshToken,
        client_id: ZOHO_SANDBOX_DEFAULTS.clientId,
        client_secret: p.secrets.zohoClientSecret,
      }),
    });
    expect(JSON.stringify(await asked.json())).toMatch(/"error"/);
    const before = p.zoho.tokens.refused.invalid_grant;

    // A restart (or reload) with the new token in the config: a new runtime on the same Redis.
    const config = parseConfig(
      p.rawConfig,
      { ...p.secretEnv, REL_ZOHO_REFRESH_TOKEN: renewed },
      validateSettings,
      'reconsent config',
    );
    const rt = await createRuntime(config, TEST_REDIS_URL, createLogger({ level: 'silent', format: 'json' }));
    try {
      const res = await rt.vendorClient(CONNECTION).request(organizations);
      expect(res).toBeDefined();
      expect(await rt.quotas.parkedUntil(CONNECTION)).toBeUndefined();
      expect(await gauge(rt)).toBe(1);
      expect(TokenSealer.withKeys(KEY).open((await tokenHash()).refreshToken!, `${CONNECTION}:refreshToken`)).toBe(
        renewed,
      );
      expect(p.zoho.tokens.refused.invalid_grant).toBe(before);

      // A replica still on the old config does not put the old token back.
      const old = await p.newRuntime();
      const err = await old
        .vendorClient(CONNECTION)
        .request(organizations)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(err).toBeUndefined();
      expect(TokenSealer.withKeys(KEY).open((await tokenHash()).refreshToken!, `${CONNECTION}:refreshToken`)).toBe(
        renewed,
      );
      expect((await collectStatus(rt)).connections.find((c) => c.id === CONNECTION)!.credentials.ok).toBe(true);
    } finally {
      await rt.close();
    }
  });
});
